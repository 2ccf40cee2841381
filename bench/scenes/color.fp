!!ARBfp1.0
# Pass-through: the interpolated primary colour (the fixed-function
# fragment stage with texturing off, GL 2.1 section 3.9).
MOV result.color, fragment.color;
END
