// CModelKitRuntime declares Swift runtime functions (see include/CModelKitRuntime.h), and holds
// the one piece of per-thread state ModelKit keeps: the class instances a thread is writing, so
// a model graph that contains itself is an error instead of a recursion without end. Writing is
// synchronous, so a thread's list is all a cycle check needs; the list itself is a Swift object
// the Swift side manages.
#include "CModelKitRuntime.h"

static _Thread_local void *writesInProgress;

void *modelkit_writes_in_progress(void) { return writesInProgress; }

void modelkit_set_writes_in_progress(void *list) { writesInProgress = list; }
