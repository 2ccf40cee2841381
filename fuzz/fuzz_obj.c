/*
 * Wavefront OBJ loader (gfx_mesh_obj, the `mesh NAME obj FILE` directive).
 * Any text either fails with a message or gives a mesh whose indices all
 * name vertices it has.
 */
#include "fuzz/fuzz.h"
#include "gfx/gfx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct gfx_mesh m;
    struct us_diag d;
    if (gfx_mesh_obj(&m, text, size, NULL, &d)) {
        for (size_t i = 0; i < 3 * (size_t)m.ntris; i++)
            if (m.idx[i] >= m.nverts)
                fuzz_fail("OBJ mesh index out of range", NULL);
        gfx_mesh_free(&m);
    } else {
        fuzz_check_diag(&d);
    }
    free(text);
    return 0;
}
