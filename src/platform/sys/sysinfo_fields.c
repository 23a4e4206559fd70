// SPDX-License-Identifier: MIT
/* The schema of sysinfo results: one field table per struct drives text, JSON and CSV. */
#include "platform/sys/sysinfo.h"
#include "model/field.h"

#include "platform/sys/sysinfo_fields.fields.h"

void sysinfo_describe_gadgets(const struct gadget_facts *g, struct report *out)
{
	report_add_table(out, "gadgets", "gadgets (configfs)", &gadget_desc, g->gadgets,
			 g->ngadgets, sizeof(*g->gadgets));
	report_add_table(out, "gadget_configs", "gadget configs", &config_desc, g->configs,
			 g->nconfigs, sizeof(*g->configs));
	report_add_table(out, "gadget_functions", "gadget functions", &function_desc,
			 g->functions, g->nfunctions, sizeof(*g->functions));
	report_add_table(out, "gadget_luns", "mass-storage LUNs", &lun_desc, g->luns, g->nluns,
			 sizeof(*g->luns));
	report_add_table(out, "udcs", "UDCs (/sys/class/udc)", &udc_desc, g->udcs, g->nudcs,
			 sizeof(*g->udcs));
}

void sysinfo_describe(const struct sysinfo_facts *si, const struct finding_list *findings,
		      struct report *out)
{
	/* CSV renders the first table: the cpufreq policies */
	report_add_object(out, "system", "system", &system_desc, si);
	report_add_table(out, "cpufreq", "cpufreq", &policy_desc, si->policies, si->npolicies,
			 sizeof(*si->policies));
	report_add_object(out, "memory", "memory and writeback", &memory_desc, si);
	report_add_object(out, "usb", "usb", &usb_desc, si);
	report_add_table(out, "usbcore_params", "other usbcore parameters", &param_desc,
			 si->usbcore_params, si->nusbcore_params, sizeof(*si->usbcore_params));
	sysinfo_describe_gadgets(&si->usb, out);
	report_add_table(out, "findings", "findings", &finding_desc, findings->v, findings->n,
			 sizeof(*findings->v));
}
