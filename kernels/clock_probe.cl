/*
 * The clock probe beside every timed point: one work-item runs a chain of dependent
 * integer rounds, so its time is a count of the device's clock cycles and nothing else
 * (no memory but one word, no other work-item). The harness times it before and after each
 * point's launches (bench/harness/measure.c); a point whose probe moved between two documents ran
 * at another speed (clock or power state), and bench compare will not call its change the
 * kernel's.
 * Each round multiplies and mixes in its own shifted bits: not linear, so no compiler can
 * fold the chain into fewer rounds, and rounds is a run-time argument.
 */
__kernel void clock_probe(__global uint *restrict out, uint rounds)
{
	uint x = rounds ^ 0x2545f491u;

	for (uint i = 0; i < rounds; i++)
		x = (x ^ (x >> 15)) * 0x9e3779b1u;
	out[0] = x;
}
