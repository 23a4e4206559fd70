// SPDX-License-Identifier: MIT
/*
 * What an interface became for the user: the class devices sysfs hangs
 * below it (block/sdb, net/usb0, video4linux/video0, hidraw/hidraw0, tty/ttyACM0),
 * with what matters for throughput: mounts, queue limits, link speed.
 */
#include "platform/sys/mounts.h"
#include "platform/usb/topology_priv.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8 /* interface -> host0/target0:0:0/0:0:0:0/block/sdb/sdb1 */

static struct usb_node *new_node(struct usb_topology *t, const char *dev, const char *intf,
				 const char *kind, const char *name)
{
	struct usb_node *n;

	t->node = xgrow(t->node, &t->nnode, sizeof(*t->node));
	n = &t->node[t->nnode - 1];
	n->device = strdup(dev);
	n->interface = strdup(intf);
	n->kind = kind;
	n->name = strdup(name);
	n->size_bytes = n->max_sectors_kb = n->max_hw_sectors_kb = U64_UNKNOWN;
	n->nr_requests = n->rotational = n->read_ahead_kb = U64_UNKNOWN;
	n->link_mbps = n->mtu = U64_UNKNOWN;
	return n;
}

static char *dev_path(const char *name)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "/dev/%s", name);
	return strbuf_detach(&p);
}

/* "mq-deadline kyber [bfq] none" -> "bfq" */
static char *active_scheduler(const char *dir)
{
	char *s = attr_get(dir, "scheduler"), *open, *close, *r = NULL;

	if (!s)
		return NULL;
	open = strchr(s, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		r = strndup(open + 1, (size_t)(close - open - 1));
	else if (!strchr(s, ' '))
		r = strdup(s);
	free(s);
	return r;
}

static void find_mount(struct usb_node *n, const char *dir, const struct mount_table *mt)
{
	const struct mount_entry *m = NULL;
	char *dev = attr_get(dir, "dev");
	unsigned maj, min;
	size_t i;

	n->devnum = dev;
	if (parse_devnum(dev, &maj, &min) == 0)
		m = mounts_find_dev(mt, maj, min);
	/* FUSE mounts (ntfs-3g) carry fuse's own device number: match the source */
	for (i = 0; !m && n->dev_node && i < mt->n; i++)
		if (mt->e[i].source && !strcmp(mt->e[i].source, n->dev_node))
			m = &mt->e[i];
	if (!m)
		return;
	n->fs_type = m->fs_type ? strdup(m->fs_type) : NULL;
	n->mount_point = m->mount_point ? strdup(m->mount_point) : NULL;
	n->fuse = n->fs_type && fs_is_fuse(n->fs_type);
}

static void probe_block(struct usb_topology *t, const char *dev, const char *intf,
			const char *dir, const char *name, const struct mount_table *mt)
{
	struct strbuf q = STRBUF_INIT, sub = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	struct usb_node *n = new_node(t, dev, intf, USB_NODE_DISK, name);
	uint64_t sectors = attr_get_u64(dir, "size");
	size_t i;

	n->dev_node = dev_path(name);
	if (sectors != U64_UNKNOWN && sectors < UINT64_MAX / 512)
		n->size_bytes = sectors * 512; /* sysfs counts 512-byte sectors whatever the LBA size */
	strbuf_addf(&q, "%s/queue", dir);
	n->max_sectors_kb = attr_get_u64(q.buf, "max_sectors_kb");
	n->max_hw_sectors_kb = attr_get_u64(q.buf, "max_hw_sectors_kb");
	n->nr_requests = attr_get_u64(q.buf, "nr_requests");
	n->rotational = attr_get_u64(q.buf, "rotational");
	n->read_ahead_kb = attr_get_u64(q.buf, "read_ahead_kb");
	n->scheduler = active_scheduler(q.buf);
	find_mount(n, dir, mt);
	if (sysroot_list(dir, &l) == 0) {
		for (i = 0; i < l.n; i++) {
			struct usb_node *p;

			strbuf_reset(&sub);
			strbuf_addf(&sub, "%s/%s/partition", dir, l.v[i]);
			if (!sysroot_exists(sub.buf))
				continue;
			strbuf_reset(&sub);
			strbuf_addf(&sub, "%s/%s", dir, l.v[i]);
			p = new_node(t, dev, intf, USB_NODE_PARTITION, l.v[i]);
			p->parent_name = strdup(name);
			p->dev_node = dev_path(l.v[i]);
			sectors = attr_get_u64(sub.buf, "size");
			if (sectors != U64_UNKNOWN && sectors < UINT64_MAX / 512)
				p->size_bytes = sectors * 512;
			find_mount(p, sub.buf, mt);
		}
		name_list_release(&l);
	}
	strbuf_release(&q);
	strbuf_release(&sub);
}

static void probe_net(struct usb_topology *t, const char *dev, const char *intf, const char *dir,
		      const char *name)
{
	struct usb_node *n = new_node(t, dev, intf, USB_NODE_NET, name);

	n->mac = attr_get(dir, "address");
	n->operstate = attr_get(dir, "operstate");
	/* "speed" reads -1 or fails with EINVAL while the link is down: unknown */
	n->link_mbps = attr_get_u64(dir, "speed");
	n->mtu = attr_get_u64(dir, "mtu");
}

static const struct {
	const char *dir;  /* class directory below the interface */
	const char *kind; /* node kind */
} classes[] = {
	{"video4linux", USB_NODE_VIDEO},
	{"hidraw", USB_NODE_HIDRAW},
	{"tty", USB_NODE_TTY},
};

static void walk(struct usb_topology *t, const char *dev, const char *intf, const char *dir,
		 unsigned depth, const struct mount_table *mt)
{
	struct name_list l = NAME_LIST_INIT, sub = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT, c = STRBUF_INIT;
	size_t i, j, k;

	if (depth > MAX_DEPTH || sysroot_list(dir, &l) < 0)
		return;
	for (i = 0; i < l.n; i++) {
		const char *name = l.v[i];
		enum vnode_kind kind;
		bool handled = false;

		/* endpoints and power hold no class devices; links lead elsewhere */
		if (!strcmp(name, "power") || !strncmp(name, "ep_", 3))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, name);
		if (sysroot_lkind(p.buf, &kind) < 0 || kind != VNODE_DIR)
			continue;
		if (!strcmp(name, "block") || !strcmp(name, "net")) {
			if (sysroot_list(p.buf, &sub) == 0) {
				for (j = 0; j < sub.n; j++) {
					strbuf_reset(&c);
					strbuf_addf(&c, "%s/%s", p.buf, sub.v[j]);
					if (name[0] == 'b')
						probe_block(t, dev, intf, c.buf, sub.v[j], mt);
					else
						probe_net(t, dev, intf, c.buf, sub.v[j]);
				}
				name_list_release(&sub);
			}
			continue;
		}
		for (k = 0; k < sizeof(classes) / sizeof(classes[0]); k++) {
			if (strcmp(name, classes[k].dir))
				continue;
			handled = true;
			if (sysroot_list(p.buf, &sub) < 0)
				break;
			for (j = 0; j < sub.n; j++) {
				struct usb_node *n = new_node(t, dev, intf, classes[k].kind, sub.v[j]);

				strbuf_reset(&c);
				strbuf_addf(&c, "%s/%s", p.buf, sub.v[j]);
				n->dev_node = dev_path(sub.v[j]);
				n->label = attr_get(c.buf, "name");
			}
			name_list_release(&sub);
		}
		if (!handled)
			walk(t, dev, intf, p.buf, depth + 1, mt);
	}
	name_list_release(&l);
	strbuf_release(&p);
	strbuf_release(&c);
}

void probe_nodes(struct usb_topology *t, const char *dev, const char *intf, const char *dir,
		 const struct mount_table *mt)
{
	walk(t, dev, intf, dir, 0, mt);
}
