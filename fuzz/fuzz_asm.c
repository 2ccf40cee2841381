/*
 * ARB assembler harness.  Any bytes: us_assemble either fails with a
 * message or gives a program whose canonical text (us_disassemble)
 * assembles to an equal program (the disassembler's contract in
 * include/ushader.h); the accepted program then runs on the reference
 * interpreter with GL's initial state and no sampler (textures read
 * (0,0,0,1)): one thread, and a 2x2 quad for fragment programs.
 */
#include "fuzz/fuzz.h"

static void run(const struct us_program *p)
{
    struct us_glstate *gl = malloc(sizeof *gl);
    us_vec4 *params = calloc(p->nparams ? p->nparams : 1, sizeof *params);
    struct us_thread *t = malloc(4 * sizeof *t);
    if (!gl || !params || !t)
        fuzz_fail("out of memory", NULL);
    us_glstate_init(gl);
    us_resolve_params(p, gl, params);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    us_thread_reset(&t[0]);
    us_interpret(p, &env, &t[0]);
    if (p->stage == US_STAGE_FRAGMENT) {
        for (int i = 0; i < 4; i++)
            us_thread_reset(&t[i]);
        us_interpret_quad(p, &env, t);
    }
    free(t);
    free(params);
    free(gl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct us_program p, q;
    struct us_diag d;
    /* The exact buffer, not NUL-terminated: us_assemble takes (text, len). */
    if (!us_assemble((const char *)data, size, US_STAGE_ANY, &p, &d)) {
        fuzz_check_diag(&d);
        return 0;
    }
    char *text = us_disassemble(&p);
    if (!text)
        fuzz_fail("us_disassemble returned NULL", NULL);
    if (!us_assemble(text, strlen(text), US_STAGE_ANY, &q, &d)) {
        fprintf(stderr, "%s\n", text);
        fuzz_fail("canonical text does not assemble", d.msg);
    }
    if (!us_program_equal(&p, &q)) {
        fprintf(stderr, "%s\n", text);
        fuzz_fail("disassemble -> assemble changed the program", NULL);
    }
    free(text);
    us_program_free(&q);
    run(&p);
    us_program_free(&p);
    return 0;
}
