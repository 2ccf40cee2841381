/* What produced an output: the version and the commit built
 * (build/gen/version.h, written by the Makefile). */
#include "ushader.h"
#include "version.h"

const char *us_version(void) { return US_VERSION; }
const char *us_commit(void) { return US_COMMIT; }
