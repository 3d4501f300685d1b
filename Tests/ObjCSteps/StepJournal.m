#include "StepJournal.h"

#include <objc/runtime.h>
#include <objc/message.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// Whether an NSAutoreleasePool is in place on this thread, asked through the runtime
// (+[NSAutoreleasePool currentPool]); "none" when no Foundation defines the class.
static const char *poolState(void) {
    Class poolClass = objc_lookUpClass("NSAutoreleasePool");
    if (poolClass == Nil) return "none";
    SEL currentPool = sel_registerName("currentPool");
    IMP imp = objc_msg_lookup((id)poolClass, currentPool);
    id pool = ((id (*)(id, SEL))imp)((id)poolClass, currentPool);
    return pool != nil ? "yes" : "no";
}

void XXRecord(const char *step, const char *detail) {
    const char *path = getenv("OBJC_STEPS_JOURNAL");
    if (path == NULL) return;
    FILE *journal = fopen(path, "a");
    if (journal == NULL) return;
    int isMain = syscall(SYS_gettid) == getpid();
    fprintf(journal, "%s %s main=%s pool=%s\n", step, detail, isMain ? "yes" : "no", poolState());
    fclose(journal);
}

int XXFirstTime(const char *step) {
    const char *path = getenv("OBJC_STEPS_JOURNAL");
    if (path == NULL) return 0;
    char marker[4096];
    snprintf(marker, sizeof marker, "%s.%s.tried", path, step);
    if (access(marker, F_OK) == 0) return 0;
    FILE *file = fopen(marker, "w");
    if (file != NULL) fclose(file);
    return 1;
}
