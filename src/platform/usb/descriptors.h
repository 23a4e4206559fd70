/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Raw USB descriptors as Linux exposes them in sysfs, decoded into plain data.
 *
 * <dev>/descriptors: the 18-byte device descriptor, then for every
 * configuration its configuration descriptor and all that follows it
 * (interfaces, endpoints, class-specific descriptors, interface
 * associations, SuperSpeed companions), little-endian, back to back. The
 * kernel copies a configuration only as far as it could parse it, so the
 * wTotalLength inside may claim more than the file holds: the next
 * configuration descriptor starts where the kernel stopped.
 *
 * <dev>/bos_descriptors (Linux 6.9 and later): the BOS descriptor and its
 * device capabilities. The kernel reads it only from devices with bcdUSB
 * 2.01 or later.
 *
 * The bytes come from the device and may be truncated or lie about lengths
 * and counts. The parsers never read outside the buffer, decode what they
 * can and mark the rest in flags.
 */
#include "platform/usb/speed.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps on what is kept; beyond them entries are dropped and USB_DESC_F_LIMIT set. */
#define USB_DESC_MAX_CONFIGS 32
#define USB_DESC_MAX_INTERFACES 256 /* interface descriptors (alt settings) per configuration */
#define USB_DESC_MAX_ENDPOINTS 32   /* per alt setting: 15 IN + 15 OUT fit */
#define USB_DESC_MAX_IADS 32	    /* per configuration */
#define USB_DESC_MAX_CAPS 32	    /* BOS device capabilities */
#define USB_DESC_MAX_SUBLINKS 32    /* SSP sublink speed attributes: the count field has 5 bits */

/* What was wrong with the bytes; decoding went on wherever it could. */
enum usb_desc_flag {
	USB_DESC_F_TRUNCATED = 1u << 0,	 /* the input ended inside a descriptor */
	USB_DESC_F_BAD_LENGTH = 1u << 1, /* a bLength below 2: nothing after it is reachable */
	USB_DESC_F_SHORT = 1u << 2,	 /* a known descriptor too short for its fields: skipped */
	USB_DESC_F_TOTAL_TOO_BIG = 1u << 3,   /* wTotalLength claims more bytes than are there */
	USB_DESC_F_TOTAL_TOO_SMALL = 1u << 4, /* wTotalLength ends before or inside a descriptor */
	USB_DESC_F_NUM_INTERFACES = 1u << 5,  /* bNumInterfaces != interface numbers found */
	USB_DESC_F_NUM_ENDPOINTS = 1u << 6, /* an alt setting's bNumEndpoints != endpoints found */
	USB_DESC_F_NUM_CONFIGS = 1u << 7,   /* bNumConfigurations != configurations found */
	USB_DESC_F_NUM_CAPS = 1u << 8,	    /* bNumDeviceCaps != capabilities found */
	USB_DESC_F_STRAY = 1u << 9,	    /* endpoint or companion with nothing to belong to */
	USB_DESC_F_LIMIT = 1u << 10,	    /* more than a USB_DESC_MAX_* cap: the rest dropped */
	USB_DESC_F_SKIPPED = 1u << 11,	    /* bytes were stepped over without being parsed */
	USB_DESC_F_BAD_TYPE = 1u << 12,	    /* bLength field or descriptor type not as required */
	USB_DESC_F_COUNT = 13,		    /* number of flags */
};

enum usb_transfer_type {
	USB_XFER_CONTROL = 0,
	USB_XFER_ISOC = 1,
	USB_XFER_BULK = 2,
	USB_XFER_INTERRUPT = 3,
};

/* UAS pipe usage descriptor IDs (the one following each UAS endpoint) */
enum usb_uas_pipe {
	USB_UAS_PIPE_NONE = 0,
	USB_UAS_PIPE_COMMAND = 1,
	USB_UAS_PIPE_STATUS = 2,
	USB_UAS_PIPE_DATA_IN = 3,
	USB_UAS_PIPE_DATA_OUT = 4,
};

struct usb_desc_endpoint {
	uint8_t address;	     /* bEndpointAddress */
	uint8_t number;		     /* address bits 3:0 */
	bool in;		     /* address bit 7: device to host */
	uint8_t attributes;	     /* bmAttributes as sent */
	enum usb_transfer_type type; /* bmAttributes 1:0 */
	uint8_t sync;		 /* bmAttributes 3:2 (isochronous): none, async, adaptive, sync */
	uint8_t usage;		 /* bmAttributes 5:4: data, feedback, implicit feedback */
	uint16_t max_packet_raw; /* wMaxPacketSize as sent */
	uint16_t max_packet;	 /* wMaxPacketSize 10:0, bytes per packet */
	uint8_t mult;		 /* 1 + wMaxPacketSize 12:11: packets per microframe (high speed) */
	uint8_t interval;	 /* bInterval as sent; its unit depends on speed and type */

	/* SuperSpeed endpoint companion; all zero when there is none */
	bool has_ss_comp;
	uint8_t max_burst;	  /* bMaxBurst: packets per burst minus one */
	uint8_t ss_attributes;	  /* bmAttributes as sent */
	uint8_t ss_mult;	  /* isochronous: 1 + bits 1:0, bursts per service interval */
	uint8_t max_streams_log2; /* bulk: bits 4:0 */
	uint32_t max_streams;	  /* bulk: 2^max_streams_log2 (0: no streams or reserved value) */
	uint16_t bytes_per_interval; /* wBytesPerInterval (periodic endpoints) */

	/* SuperSpeedPlus isochronous companion: supersedes wBytesPerInterval */
	bool has_ssp_iso_comp;
	uint32_t ssp_bytes_per_interval;

	uint8_t uas_pipe_id; /* enum usb_uas_pipe, from a pipe usage descriptor */
};

/* One interface descriptor, that is one alternate setting of an interface. */
struct usb_desc_interface {
	uint8_t number;	       /* bInterfaceNumber */
	uint8_t alt;	       /* bAlternateSetting */
	uint8_t num_endpoints; /* bNumEndpoints as declared */
	uint8_t cls, subclass, protocol;
	struct usb_desc_endpoint *eps; /* NULL when n_eps is 0 */
	size_t n_eps;
	unsigned n_extra; /* class-specific and unknown descriptors that follow it */
	/*
	 * Where they are in the input: from the first one's offset to the end
	 * of the last (both 0 when n_extra is 0). Every descriptor in the span
	 * is whole; endpoints and companions may sit between them.
	 */
	size_t extra_off, extra_end;
};

struct usb_desc_iad {
	uint8_t first_interface, interface_count;
	uint8_t cls, subclass, protocol;
};

struct usb_desc_config {
	uint8_t value;		      /* bConfigurationValue */
	uint8_t attributes;	      /* bmAttributes: bit 6 self-powered, bit 5 remote wakeup */
	uint8_t max_power_raw;	      /* bMaxPower as sent */
	unsigned max_power_ma;	      /* units of 2 mA below SuperSpeed, 8 mA at SuperSpeed */
	uint8_t num_interfaces;	      /* bNumInterfaces as declared */
	uint16_t total_length;	      /* wTotalLength as declared */
	size_t length;		      /* bytes of this configuration parsed from the input */
	unsigned n_interface_numbers; /* distinct bInterfaceNumber values found */
	struct usb_desc_interface *intfs; /* in input order; NULL when n_intfs is 0 */
	size_t n_intfs;
	struct usb_desc_iad *iads; /* NULL when n_iads is 0 */
	size_t n_iads;
	unsigned n_extra; /* descriptors between the config descriptor and the first interface */
	unsigned flags;	  /* enum usb_desc_flag */
};

struct usb_desc_device {
	uint8_t length; /* bLength as sent; sysfs always holds 18 bytes */
	uint16_t bcd_usb;
	uint8_t cls, subclass, protocol;
	uint8_t max_packet0_raw; /* bMaxPacketSize0 as sent */
	unsigned max_packet0;	 /* bytes: the field is an exponent at SuperSpeed */
	uint16_t vendor, product, bcd_device;
	uint8_t num_configurations;	 /* bNumConfigurations as declared */
	struct usb_desc_config *configs; /* NULL when n_configs is 0 */
	size_t n_configs;
	size_t skipped; /* input bytes parsed into no configuration */
	unsigned flags; /* the device's own and every configuration's */
};

/*
 * Parse the contents of <dev>/descriptors. superspeed: the device is
 * connected at SuperSpeed or faster, which changes the units of bMaxPower and
 * bMaxPacketSize0 (a device sends other descriptors at other speeds, so this
 * is the link speed, not what bcdUSB claims).
 * -EINVAL: fewer than 18 bytes or no device descriptor at the start;
 * -ENOMEM. Anything after the device descriptor never fails the parse.
 * Release with usb_desc_release(): everything hangs off one allocation.
 */
int usb_desc_parse(const void *data, size_t len, bool superspeed, struct usb_desc_device *ret);
/* Frees and zeroes; accepts NULL and a zeroed struct. */
void usb_desc_release(struct usb_desc_device *d);

/* The configuration with that bConfigurationValue (sysfs bConfigurationValue), or NULL. */
const struct usb_desc_config *usb_desc_config_by_value(const struct usb_desc_device *d,
						       unsigned value);
/* Alternate setting alt of interface ifnum, or NULL. */
const struct usb_desc_interface *usb_desc_find_interface(const struct usb_desc_config *c,
							 unsigned ifnum, unsigned alt);
/*
 * Does interface ifnum have an alternate setting for UAS (class 8 mass
 * storage, subclass 6 SCSI, protocol 0x62)? Bulk-only transport is 0x50.
 */
bool usb_desc_offers_uas(const struct usb_desc_config *c, unsigned ifnum);

/* wSpeedsSupported bits of the SuperSpeed USB device capability */
#define USB_SS_SPEED_LOW (1u << 0)
#define USB_SS_SPEED_FULL (1u << 1)
#define USB_SS_SPEED_HIGH (1u << 2)
#define USB_SS_SPEED_5G (1u << 3)

/* One sublink speed attribute of the SuperSpeedPlus device capability. */
struct usb_desc_sublink {
	uint8_t ssid;	   /* sublink speed attribute ID, bits 3:0 */
	uint8_t exponent;  /* LSE, bits 5:4: 0 b/s, 1 kb/s, 2 Mb/s, 3 Gb/s */
	bool asymmetric;   /* ST bit 6 */
	bool tx;	   /* ST bit 7: the attribute describes the transmit sublink */
	uint8_t protocol;  /* LP, bits 15:14: 0 SuperSpeed (Gen 1), 1 SuperSpeedPlus */
	uint16_t mantissa; /* LSM, bits 31:16 */
	uint32_t mbps;	   /* lane speed in Mbit/s, rounded down */
};

struct usb_desc_bos {
	uint16_t total_length;		      /* wTotalLength as declared */
	uint8_t num_caps;		      /* bNumDeviceCaps as declared */
	size_t length;			      /* bytes parsed */
	uint8_t cap_types[USB_DESC_MAX_CAPS]; /* bDevCapabilityType of each, in order */
	size_t n_caps;

	bool has_usb2_ext;	  /* USB 2.0 extension */
	uint32_t usb2_attributes; /* its bmAttributes */
	bool has_lpm;		  /* bit 1: link power management (L1) */
	bool has_besl;		  /* bit 2: BESL and alternate HIRD definitions */

	bool ss_capable; /* SuperSpeed USB device capability */
	uint8_t ss_attributes;
	bool ltm_capable;	  /* bmAttributes bit 1 */
	uint16_t ss_speeds;	  /* wSpeedsSupported: USB_SS_SPEED_* */
	uint8_t ss_functionality; /* bFunctionalitySupport: lowest fully functional speed */
	uint8_t u1_exit_lat;	  /* bU1DevExitLat, us */
	uint16_t u2_exit_lat;	  /* wU2DevExitLat, us */

	bool ssp_capable; /* SuperSpeedPlus USB device capability */
	uint32_t ssp_attributes;
	uint16_t ssp_functionality; /* wFunctionalitySupport as sent */
	uint8_t ssp_min_ssid, ssp_min_rx_lanes, ssp_min_tx_lanes;
	struct usb_desc_sublink sublinks[USB_DESC_MAX_SUBLINKS];
	size_t n_sublinks;
	uint32_t ssp_max_lane_mbps; /* fastest sublink, Mbit/s per lane */
	/*
	 * Lanes the capability implies. The BOS has no field for the lane
	 * count a device can run: 2 only when a symmetric sublink runs the
	 * SuperSpeedPlus protocol at Gen 1 rate (which only dual-lane Gen 1x2
	 * does) or the minimum functional lane count is 2 or more; else 1.
	 */
	unsigned ssp_lanes;

	bool has_container_id;
	uint8_t container_id[16];

	unsigned flags; /* enum usb_desc_flag */
};

/*
 * Parse the contents of <dev>/bos_descriptors; no allocation.
 * -EINVAL: fewer than 5 bytes or no BOS descriptor at the start.
 */
int usb_desc_bos_parse(const void *data, size_t len, struct usb_desc_bos *ret);
/*
 * The fastest speed the BOS claims: from the SuperSpeedPlus sublink speeds
 * and lanes, else the SuperSpeed wSpeedsSupported bitmap;
 * USB_SPEED_UNKNOWN when it has neither capability.
 */
enum usb_speed usb_desc_bos_max_speed(const struct usb_desc_bos *b);

/*
 * Names (static strings, never NULL). Class codes from the usb.org class
 * code list, device and interface classes alike: "mass-storage", "hid",
 * "vendor"...; "unknown" for unassigned codes.
 */
const char *usb_class_name(unsigned cls);
/* "control", "isochronous", "bulk", "interrupt" */
const char *usb_transfer_type_name(enum usb_transfer_type t);
/* BOS bDevCapabilityType: "usb2-ext", "superspeed", "superspeed-plus", "container-id", ... */
const char *usb_bos_cap_name(unsigned type);
/* Name of one flag bit (USB_DESC_F_TRUNCATED -> "truncated"); "unknown" if not one flag. */
const char *usb_desc_flag_name(unsigned flag);
