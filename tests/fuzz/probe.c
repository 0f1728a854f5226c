/* Configure-time probe: does clang link a libFuzzer harness with the sanitizers here? */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	return (int)(size & 0);
}
