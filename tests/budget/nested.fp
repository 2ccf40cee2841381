!!ARBfp1.0
# Two nested loops that never end: under the old per-visit cap of 65,536
# iterations this ran 2^32 iterations; the instruction budget stops it.
OPTION USHADER_extensions;
TEMP c;
MOV c, 0;
BGNLOOP;
  ADD c.x, c.x, 1.0;
  MOV c.y, 0;
  BGNLOOP;
    ADD c.y, c.y, 1.0;
  ENDLOOP;
ENDLOOP;
MOV result.color, c;
END
