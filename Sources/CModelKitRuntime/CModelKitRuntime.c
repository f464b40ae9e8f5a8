// CModelKitRuntime declares Swift runtime functions (see include/CModelKitRuntime.h), and holds
// the one piece of per-thread state ModelKit keeps: the class instances a thread is writing, so
// a model graph that contains itself is an error instead of a recursion without end. Writing is
// synchronous, so a thread's list is all a cycle check needs; the list itself is a Swift object
// the Swift side manages.
#include "CModelKitRuntime.h"
#include <pthread.h>

/// Releases a thread's list (a retained Swift object) when the thread exits.
extern void swift_release(void *object);

static _Thread_local void *writesInProgress;
static pthread_key_t listOwner;
static pthread_once_t listOwnerOnce = PTHREAD_ONCE_INIT;

static void releaseList(void *list) { swift_release(list); }

static void makeListOwner(void) { pthread_key_create(&listOwner, releaseList); }

void *modelkit_writes_in_progress(void) { return writesInProgress; }

// The fast thread-local slot is what reads use; the pthread key only owns the list, so the
// thread's exit releases it.
void modelkit_set_writes_in_progress(void *list) {
    pthread_once(&listOwnerOnce, makeListOwner);
    void *previous = pthread_getspecific(listOwner);
    pthread_setspecific(listOwner, list);
    if (previous && previous != list) swift_release(previous);
    writesInProgress = list;
}
