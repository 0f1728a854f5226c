/* Intel's unified shared memory entry points (usm.h). */
#include "usm.h"

#include <string.h>

/* An extension's entry point into *fn (a function pointer; ISO C casts none from void *). */
static bool entry(cl_platform_id p, const char *name, void *fn, size_t size)
{
	void *f = clGetExtensionFunctionAddressForPlatform(p, name);

	memcpy(fn, &f, size);
	return f != NULL;
}

bool usm_fns_load(cl_platform_id p, struct usm_fns *u)
{
	return entry(p, "clDeviceMemAllocINTEL", &u->alloc, sizeof(u->alloc)) &&
	       entry(p, "clMemBlockingFreeINTEL", &u->free, sizeof(u->free)) &&
	       entry(p, "clGetMemAllocInfoINTEL", &u->info, sizeof(u->info)) &&
	       entry(p, "clSetKernelArgMemPointerINTEL", &u->arg, sizeof(u->arg)) &&
	       entry(p, "clEnqueueMemcpyINTEL", &u->copy, sizeof(u->copy));
}
