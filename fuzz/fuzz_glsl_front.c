/*
 * The GLSL front step (us_glsl_front, glsl/front.c): legacy GLSL text
 * rewritten into GLSL 3.30.  No compiler is run; only the rewrite.
 *
 * The first byte picks the mode: bit 0 the stage of a shader alone (0
 * vertex, 1 fragment), bit 1 a program pair through one link table
 * instead (the text up to the first "\n%%\n" is the vertex shader, the
 * rest the fragment shader, as the piglit runner links them).  Every
 * shader is rewritten alone for both stages as well.
 *
 * Properties of a rewrite that succeeds: the output is NUL-terminated at
 * out_len with no NUL before, opens with "#version 330", and its body
 * after "#line 1" has exactly the source's line breaks (the front step
 * keeps every line's number, so the compiler's messages point into the
 * user's file); the same input gives the same output; the link table's
 * varyings and attributes lie inside their slot ranges without overlap,
 * and varyings stay above the gl_TexCoord elements used.  A failure has a
 * message and a line.
 */
#include "fuzz/fuzz.h"

static size_t count_nl(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

static void check_output(const char *in, size_t len, const char *out,
                         size_t out_len)
{
    if (!out)
        fuzz_fail("success without an output", NULL);
    if (out[out_len] != '\0' || memchr(out, '\0', out_len))
        fuzz_fail("output not NUL-terminated at out_len", NULL);
    if (strncmp(out, "#version 330\n", 13))
        fuzz_fail("output does not open with #version 330", NULL);
    const char *body = strstr(out, "\n#line 1\n");
    if (!body)
        fuzz_fail("output has no #line 1", NULL);
    body += 9;
    if (count_nl(body, out_len - (size_t)(body - out)) != count_nl(in, len))
        fuzz_fail("the rewrite changed the number of lines", NULL);
}

static void check_slots(const struct us_glsl_slot *s, unsigned n,
                        unsigned max, unsigned lowest, const char *what)
{
    if (n > max)
        fuzz_fail("more slots than the table holds", what);
    uint32_t taken = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned first = s[i].first, count = s[i].count;
        if (count == 0 || first < lowest || first + count > max)
            fuzz_fail("slot outside its range", what);
        uint32_t m = ((1u << count) - 1) << first;
        if (taken & m)
            fuzz_fail("two names share a slot", what);
        taken |= m;
        if (!memchr(s[i].name, '\0', sizeof s[i].name) || !s[i].name[0])
            fuzz_fail("slot without a name", what);
    }
}

static void check_link(const struct us_glsl_link *l)
{
    if (l->texcoords > US_GLSL_VARYING_SLOTS ||
        l->floor > US_GLSL_VARYING_SLOTS)
        fuzz_fail("link table counts out of range", NULL);
    check_slots(l->varying, l->nvaryings, US_GLSL_VARYING_SLOTS,
                l->texcoords, "varying");
    check_slots(l->attrib, l->nattribs, US_GLSL_ATTRIB_SLOTS, 0, "attribute");
}

/* One front step; true if it succeeded (the properties checked). */
static bool front(const char *text, size_t len, enum us_stage stage,
                  struct us_glsl_link *link)
{
    char *out = NULL;
    size_t out_len = 0;
    struct us_diag d;
    if (!us_glsl_front(text, len, stage, link, &out, &out_len, &d)) {
        fuzz_check_diag(&d);
        if (d.line == 0)
            fuzz_fail("front step error without a line", d.msg);
        if (out)
            fuzz_fail("output left after an error", NULL);
        return false;
    }
    check_output(text, len, out, out_len);
    if (!link) {
        /* alone, the rewrite depends on nothing but the text */
        char *again = NULL;
        size_t again_len = 0;
        if (!us_glsl_front(text, len, stage, NULL, &again, &again_len, &d) ||
            again_len != out_len || memcmp(again, out, out_len))
            fuzz_fail("the same shader rewritten twice differs", NULL);
        free(again);
    }
    free(out);
    if (link)
        check_link(link);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned mode = data[0];
    /* the front step reads exactly len bytes: a copy of that size lets
     * ASan see any read past the end */
    size_t len = size - 1;
    char *text = malloc(len ? len : 1);
    if (!text)
        fuzz_fail("out of memory", NULL);
    memcpy(text, data + 1, len);
    if (mode & 2) {
        size_t vlen = len;
        for (size_t i = 0; i + 4 <= len; i++)
            if (!memcmp(text + i, "\n%%\n", 4)) {
                vlen = i + 1;
                break;
            }
        size_t fat = vlen + 3 <= len ? vlen + 3 : len;
        struct us_glsl_link link;
        us_glsl_link_init(&link);
        if (front(text, vlen, US_STAGE_VERTEX, &link))
            front(text + fat, len - fat, US_STAGE_FRAGMENT, &link);
        front(text, vlen, US_STAGE_VERTEX, NULL);
        front(text + fat, len - fat, US_STAGE_FRAGMENT, NULL);
    } else {
        enum us_stage st = mode & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        front(text, len, st, NULL);
        front(text, len, st == US_STAGE_VERTEX ? US_STAGE_FRAGMENT
                                               : US_STAGE_VERTEX, NULL);
    }
    free(text);
    return 0;
}
