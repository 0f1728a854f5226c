/* The model beside a measurement. */
#include "occ_point.h"

#include <string.h>

void occ_live_init(struct occ_live *m, const struct dev_info *d)
{
	memset(m, 0, sizeof(*m));
	m->known = occ_device_from_live(d, &m->dev, m->note, sizeof(m->note));
}

void occ_kernel_from_res(struct occ_kernel *k, const struct kernel_res *r, unsigned wg,
			 unsigned simd, bool barrier)
{
	memset(k, 0, sizeof(*k));
	k->wg_size = wg;
	k->sg_size = simd;
	k->slm_bytes = (unsigned long)r->local_mem;
	k->barrier = barrier;
	k->regs_per_thread = r->nv_registers;
	k->grf_large = r->grf_large;
}

json_t *occ_live_point(const struct occ_live *m, const struct occ_kernel *k,
		       unsigned long long groups, struct occ_result *r)
{
	json_t *o;

	memset(r, 0, sizeof(*r));
	if (!m->known) {
		o = json_object();
		json_object_set_new(o, "known", json_false());
		json_object_set_new(o, "reason", json_string(m->note));
		snprintf(r->why_not, sizeof(r->why_not), "%s", "device unknown to the model");
		return o;
	}
	occ_predict(&m->dev, k, groups, r);
	o = occ_result_json(&m->dev, k, r);
	json_object_set_new(o, "known", json_true());
	return o;
}
