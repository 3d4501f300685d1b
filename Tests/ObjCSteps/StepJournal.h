// What the steps record, for the test to check: one line per call.
#include <objc/objc.h>

// Appends "STEP DETAIL main=yes|no pool=yes|no|none" to the file named by $OBJC_STEPS_JOURNAL.
void XXRecord(const char *step, const char *detail);

// Returns 1 the first time it is called for a step (across processes: a marker file beside the
// journal), 0 after.
int XXFirstTime(const char *step);
