!!ARBfp1.0
# Loops for ever right of x = 40 (tests/render_jobs.test.sh): the draw
# fails in some screen tiles only, whichever worker owns them.
OPTION USHADER_extensions;
TEMP c;
MOV c, 0;
SGT c.z, fragment.position.x, 40.0;
IF c.z;
  BGNLOOP;
    ADD c.x, c.x, 1.0;
  ENDLOOP;
ENDIF;
MOV result.color, c;
END
