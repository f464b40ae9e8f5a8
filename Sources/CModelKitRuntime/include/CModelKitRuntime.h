#ifndef CMODELKIT_RUNTIME_H
#define CMODELKIT_RUNTIME_H

// The Swift runtime's reference-counting entry points the identity map holds live instances with.
//
// A context keeps an *unowned* reference to each live instance: it keeps the instance's memory,
// not the instance, and lives in the object's inline reference count, where a weak reference
// would move every later retain and release of the object to a side table. A lookup then tries
// to retain the object, which fails once it is being deinitialized. These functions are what
// compiled Swift code calls for `unowned` references; they are exported by the runtime on every
// platform (and part of its stable ABI on Apple platforms). Native Swift objects only.

#pragma clang assume_nonnull begin

/// A strong retain of `object`, or NULL (and no retain) when it is being deinitialized.
extern void *_Nullable swift_tryRetain(void *object);
/// Adds an unowned reference to `object`: its memory stays allocated until the matching release.
extern void *swift_unownedRetain(void *object);
/// Drops an unowned reference to `object`.
extern void swift_unownedRelease(void *object);
/// Whether `object` is being (or has been) deinitialized.
extern _Bool swift_isDeallocating(void *object);

/// The calling thread's list of class instances being written (ModelKit's cycle check), or NULL.
extern void *_Nullable modelkit_writes_in_progress(void);
/// Sets the calling thread's list of class instances being written; takes over one retain of
/// `list`, released when the thread exits (or the list is replaced).
extern void modelkit_set_writes_in_progress(void *_Nullable list);

#pragma clang assume_nonnull end

#endif
