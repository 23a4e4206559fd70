// SPDX-License-Identifier: MIT
/* The schema of sysinfo results: one field table per struct drives text, JSON and CSV. */
#include "platform/sys/sysinfo.h"
#include "model/field.h"

#define T FF_TEXT

#define S(member, key, header, flags)                                                            \
	FIELD(struct sysinfo_facts, member, key, header, NULL, FT_STR, 0, flags)
#define I(member, key, header, unit, flags)                                                      \
	FIELD(struct sysinfo_facts, member, key, header, unit, FT_INT, 0, flags)

static const struct field system_fields[] = {
	S(kernel, "kernel", "kernel", T),
	S(kernel_version, "kernel_version", "kernel build", T),
	S(preempt_model, "preempt_model", "preemption", T),
	S(preempt_mode, "preempt_mode", "preempt mode", T),
	S(board, "board", "board", T),
	S(board_source, "board_source", "board from", 0),
	S(cpu_model, "cpu_model", "cpu", T),
	S(cpus_online, "cpus_online", "cpus online", T),
	I(ncpus_online, "cpus_online_count", "cpu count", NULL, T),
	I(ncpufreq_policies, "cpufreq_policies", "cpufreq policies", NULL, T),
};

static const struct field memory_fields[] = {
	I(mem_total_kib, "mem_total_kib", "total", "KiB", T),
	I(mem_available_kib, "mem_available_kib", "available", "KiB", T),
	I(dirty_ratio, "dirty_ratio_pct", "vm.dirty_ratio", "%", T),
	I(dirty_background_ratio, "dirty_background_ratio_pct", "vm.dirty_background_ratio", "%",
	  T),
	I(dirty_bytes, "dirty_bytes", "vm.dirty_bytes", NULL, T),
	I(dirty_background_bytes, "dirty_background_bytes", "vm.dirty_background_bytes", NULL, T),
	I(dirty_expire_centisecs, "dirty_expire_centisecs", "vm.dirty_expire_centisecs", NULL, T),
	I(dirty_writeback_centisecs, "dirty_writeback_centisecs", "vm.dirty_writeback_centisecs",
	  NULL, T),
};

static const struct field usb_fields[] = {
	FIELD(struct sysinfo_facts, usbcore, "usbcore_loaded", "usbcore", NULL, FT_BOOL, 0, T),
	I(usbfs_memory_mb, "usbfs_memory_mb", "usbfs_memory_mb", "MiB", T),
	I(autosuspend_s, "autosuspend_s", "autosuspend", "s", T),
	I(authorized_default, "authorized_default", "authorized_default", NULL, T),
	FIELD(struct sysinfo_facts, gadget_configfs, "gadget_configfs", "gadget configfs", NULL,
	      FT_BOOL, 0, T),
	I(ngadgets, "gadget_count", "gadgets", NULL, T),
	I(nudcs, "udc_count", "UDCs", NULL, T),
};
#undef S
#undef I

#define S(st, member, key, header, flags) FIELD(st, member, key, header, NULL, FT_STR, 0, flags)
#define I(st, member, key, header, unit, flags)                                                  \
	FIELD(st, member, key, header, unit, FT_INT, 0, flags)

static const struct field param_fields[] = {
	S(struct usbcore_param, name, "name", "parameter", T),
	S(struct usbcore_param, value, "value", "value", T),
};

#define P struct cpufreq_policy
static const struct field policy_fields[] = {
	S(P, name, "policy", "policy", T),
	S(P, cpus, "cpus", "cpus", T),
	S(P, driver, "driver", "driver", T),
	S(P, governor, "governor", "governor", T),
	S(P, epp, "epp", "epp", T),
	I(P, cur_khz, "cur_khz", "cur", "kHz", T),
	I(P, min_khz, "min_khz", "min", "kHz", T),
	I(P, max_khz, "max_khz", "max", "kHz", T),
	I(P, cpuinfo_min_khz, "cpuinfo_min_khz", "hw min", "kHz", T),
	I(P, cpuinfo_max_khz, "cpuinfo_max_khz", "hw max", "kHz", T),
};
#undef P

#define G struct gadget_dev
static const struct field gadget_fields[] = {
	S(G, name, "name", "gadget", T),
	S(G, udc, "udc", "UDC", T),
	S(G, id_vendor, "id_vendor", "idVendor", T),
	S(G, id_product, "id_product", "idProduct", T),
	S(G, bcd_usb, "bcd_usb", "bcdUSB", T),
	S(G, bcd_device, "bcd_device", "bcdDevice", 0),
	S(G, max_speed, "max_speed", "max_speed", T),
	S(G, manufacturer, "manufacturer", "manufacturer", 0),
	S(G, product, "product", "product", T),
	S(G, serialnumber, "serialnumber", "serial", 0),
	I(G, nconfigs, "config_count", "configs", NULL, 0),
	I(G, nfunctions, "function_count", "functions", NULL, 0),
};
#undef G

#define C struct gadget_config
static const struct field config_fields[] = {
	S(C, gadget, "gadget", "gadget", T),
	S(C, name, "config", "config", T),
	I(C, max_power_ma, "max_power_ma", "MaxPower", "mA", T),
	S(C, bm_attributes, "bm_attributes", "bmAttributes", T),
	S(C, label, "label", "label", 0),
	S(C, functions, "functions", "functions", T),
};
#undef C

#define F struct gadget_function
static const struct field function_fields[] = {
	S(F, gadget, "gadget", "gadget", T),
	S(F, name, "function", "function", T),
	S(F, type, "type", "type", 0),
	S(F, instance, "instance", "instance", 0),
	S(F, configs, "configs", "configs", T),
	S(F, settings, "settings", "settings", T),
	S(F, ifname, "ifname", "ifname", 0),
	S(F, dev_addr, "dev_addr", "dev_addr", 0),
	S(F, host_addr, "host_addr", "host_addr", 0),
	I(F, qmult, "qmult", "qmult", NULL, 0),
	I(F, streaming_maxpacket, "streaming_maxpacket_bytes", "streaming_maxpacket", "B", 0),
	I(F, streaming_maxburst, "streaming_maxburst", "streaming_maxburst", NULL, 0),
	I(F, streaming_interval, "streaming_interval", "streaming_interval", NULL, 0),
	I(F, report_length, "report_length_bytes", "report_length", "B", 0),
	I(F, protocol, "protocol", "protocol", NULL, 0),
	I(F, subclass, "subclass", "subclass", NULL, 0),
	I(F, pattern, "pattern", "pattern", NULL, 0),
	I(F, bulk_buflen, "bulk_buflen_bytes", "bulk_buflen", "B", 0),
	I(F, bulk_qlen, "bulk_qlen", "bulk_qlen", NULL, 0),
	I(F, iso_qlen, "iso_qlen", "iso_qlen", NULL, 0),
	I(F, qlen, "qlen", "qlen", NULL, 0),
	I(F, isoc_interval, "isoc_interval", "isoc_interval", NULL, 0),
	I(F, isoc_maxpacket, "isoc_maxpacket_bytes", "isoc_maxpacket", "B", 0),
	I(F, isoc_mult, "isoc_mult", "isoc_mult", NULL, 0),
	I(F, isoc_maxburst, "isoc_maxburst", "isoc_maxburst", NULL, 0),
	I(F, stall, "stall", "stall", NULL, 0),
	I(F, num_buffers, "num_buffers", "num_buffers", NULL, 0),
	I(F, nluns, "lun_count", "luns", NULL, 0),
};
#undef F

#define L struct gadget_lun
static const struct field lun_fields[] = {
	S(L, gadget, "gadget", "gadget", T),
	S(L, function, "function", "function", T),
	S(L, name, "lun", "lun", T),
	S(L, file, "file", "file", T),
	I(L, ro, "ro", "ro", NULL, T),
	I(L, removable, "removable", "removable", NULL, T),
	I(L, cdrom, "cdrom", "cdrom", NULL, T),
	I(L, nofua, "nofua", "nofua", NULL, T),
};
#undef L

#define U struct udc_info
static const struct field udc_fields[] = {
	S(U, name, "name", "UDC", T),
	S(U, state, "state", "state", T),
	S(U, current_speed, "current_speed", "current speed", T),
	S(U, maximum_speed, "maximum_speed", "maximum speed", T),
	S(U, function, "function", "function", T),
	I(U, is_selfpowered, "is_selfpowered", "self-powered", NULL, T),
	I(U, is_otg, "is_otg", "otg", NULL, T),
	I(U, is_a_peripheral, "is_a_peripheral", "a-peripheral", NULL, 0),
	I(U, b_hnp_enable, "b_hnp_enable", "b_hnp_enable", NULL, 0),
	I(U, a_hnp_support, "a_hnp_support", "a_hnp_support", NULL, 0),
	I(U, a_alt_hnp_support, "a_alt_hnp_support", "a_alt_hnp_support", NULL, 0),
};
#undef U
#undef S
#undef I

static const struct record_desc system_desc = RECORD_DESC("system", system_fields);
static const struct record_desc memory_desc = RECORD_DESC("memory", memory_fields);
static const struct record_desc usb_desc = RECORD_DESC("usb", usb_fields);
static const struct record_desc param_desc = RECORD_DESC("usbcore_param", param_fields);
static const struct record_desc policy_desc = RECORD_DESC("cpufreq_policy", policy_fields);
static const struct record_desc gadget_desc = RECORD_DESC("gadget", gadget_fields);
static const struct record_desc config_desc = RECORD_DESC("gadget_config", config_fields);
static const struct record_desc function_desc = RECORD_DESC("gadget_function", function_fields);
static const struct record_desc lun_desc = RECORD_DESC("gadget_lun", lun_fields);
static const struct record_desc udc_desc = RECORD_DESC("udc", udc_fields);

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
