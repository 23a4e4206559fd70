// SPDX-License-Identifier: MIT
/* usbperf gadget down and bind (see build.h). */
#include "classes/gadget/endpoints.h"
#include "classes/gadget/state.h"
#include "platform/usb/gadget.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void gadget_built_release(struct gadget_built *b)
{
	size_t i;

	for (i = 0; i < b->nfns; i++) {
		free_all(b->fns[i].function, b->fns[i].profile, b->fns[i].settings,
			 b->fns[i].ifname);
		for (size_t j = 0; j < b->fns[i].neps; j++)
			free(b->fns[i].eps[j].ceiling_basis);
		free_all(b->fns[i].eps, b->fns[i].ep_note);
	}
	free_all(b->fns, b->gadget, b->udc, b->max_speed, b->udc_state, b->udc_speed, b->state_file,
		 b->unbound_why, b->ep_speed);
	*b = (struct gadget_built){0};
}

/*
 * every node of kind want below dir, depth first: a link (VNODE_LINK) before
 * what it points at, a directory (VNODE_DIR) after its children; the
 * kernel's own groups refuse and stay
 */
static void remove_below(const char *dir, const struct gadget_fs *fs, enum vnode_kind want,
			 int64_t *n)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT;
	enum vnode_kind k;
	size_t i;

	if (sysroot_list(dir, &l) < 0)
		return;
	for (i = l.n; i > 0; i--) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, l.v[i - 1]);
		if (sysroot_lkind(p.buf, &k) < 0)
			continue;
		if (k == VNODE_DIR)
			remove_below(p.buf, fs, want, n);
		if (k == want && (k == VNODE_DIR ? fs->rmdir(p.buf) : fs->unlink(p.buf)) == 0)
			(*n)++;
	}
	name_list_release(&l);
	strbuf_release(&p);
}

/*
 * A gadget without a state file --force may take down: every configuration
 * it has is labelled as usbperf labels its own ("usbperf: msc+ncm"), so a
 * gadget of another tool's under a name like usbperf's stays (28.12).
 */
static int labelled_ours(const char *g, char **why)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&p, "%s/configs", g);
	if (sysroot_list(p.buf, &l) < 0)
		l.n = 0;
	for (size_t i = 0; r == 0 && i < l.n; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/configs/%s/strings/0x409/configuration", g, l.v[i]);
		if (sysroot_read_attr(p.buf, &v) == 0 && strncmp(v.buf, "usbperf: ", 9))
			r = reason_set(-EPERM, why,
				       "gadget '%s' was not created by usbperf: its configuration "
				       "'%s' says '%s'; left as it is",
				       g, l.v[i], v.buf);
	}
	name_list_release(&l);
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

/* --force on a gadget without a state file: unbind, unlink, remove what configfs shows */
static int force_down(const char *dir, const struct gadget_fs *fs, int64_t *ret_n, char **why)
{
	struct strbuf g = STRBUF_INIT, p = STRBUF_INIT;
	int64_t n = 0;
	int r, pass;

	strbuf_addf(&g, GADGET_CONFIGFS "/%s", dir);
	strbuf_addf(&p, "%s/UDC", g.buf);
	r = fs->write(p.buf, "\n", 1);
	if (r < 0 && r != -ENODEV) {
		r = reason_set(r, why, "cannot unbind '%s': %s", g.buf, strerror(-r));
		goto out;
	}
	/* uvc's links depend on each other: a second pass takes what the first could not */
	for (pass = 0; pass < 2; pass++)
		remove_below(g.buf, fs, VNODE_LINK, &n);
	remove_below(g.buf, fs, VNODE_DIR, &n);
	r = fs->rmdir(g.buf);
	if (r < 0)
		r = reason_set(r, why, "cannot remove '%s': %s", g.buf, strerror(-r));
	else
		n++;
out:
	*ret_n = n;
	strbuf_release(&g);
	strbuf_release(&p);
	return r;
}

int gadget_down(const char *dir, bool force, const struct gadget_fs *fs, int64_t *ret_removed,
		char **ret_why)
{
	struct gadget_state st;
	struct strbuf g = STRBUF_INIT;
	int64_t n = 0;
	int r;

	/* only ever a gadget named as usbperf names its own: never "" (all of usb_gadget) */
	r = gadget_name_check(dir, ret_why);
	if (r < 0)
		return r;
	strbuf_addf(&g, GADGET_CONFIGFS "/%s", dir);
	r = gadget_state_load(&st, dir, ret_why);
	if (r == -ENOENT) {
		if (!sysroot_exists(g.buf))
			r = reason_set(-ENOENT, ret_why, "no gadget '%s'", g.buf);
		else if ((r = labelled_ours(g.buf, ret_why)) < 0)
			; /* another tool's under a name like usbperf's: never removed */
		else if (!force)
			r = reason_set(-EPERM, ret_why,
				       "gadget '%s' was not created by usbperf (no state file); "
				       "--force removes it",
				       g.buf);
		else
			r = force_down(dir, fs, &n, ret_why);
	} else if (r == 0) {
		r = gadget_state_undo(&st, fs, &n, ret_why);
	} else if (r != -EINVAL) {
		r = reason_set(r, ret_why, "cannot read the state of '%s': %s", dir, strerror(-r));
	}
	gadget_state_release(&st);
	strbuf_release(&g);
	*ret_removed = n;
	return r;
}

int gadget_bind(const char *dir, const char *udc, const struct gadget_fs *fs, char **ret_udc,
		char **ret_why)
{
	struct gadget_state st;
	struct gadget_facts g;
	struct strbuf p = STRBUF_INIT;
	const char *pick = NULL;
	size_t i;
	int r;

	r = gadget_state_load(&st, dir, ret_why);
	if (r == -ENOENT)
		return reason_set(-ENOENT, ret_why,
				  "gadget '%s' was not made by 'usbperf gadget up'", dir);
	if (r < 0)
		goto out;
	gadget_probe(&g);
	for (i = 0; i < g.nudcs && !pick; i++) {
		bool busy = gadget_on_udc(&g, g.udcs[i].name) || g.udcs[i].function;

		if (udc ? !strcmp(udc, g.udcs[i].name) : !busy)
			pick = g.udcs[i].name;
	}
	if (!pick)
		r = reason_set(-ENODEV, ret_why,
			       udc ? "no UDC '%s' in " UDC_CLASS : "no free UDC in " UDC_CLASS "%s",
			       udc ? udc : "");
	if (r == 0) {
		st.fd = -1;
		strbuf_addf(&p, GADGET_CONFIGFS "/%s/UDC", dir);
		*ret_udc = xstrdup(pick);
		r = fs->write(p.buf, pick, strlen(pick));
		if (r < 0)
			reason_set(r, ret_why, "cannot bind '%s' to UDC '%s': %s", dir, pick,
				   strerror(-r));
	}
	gadget_facts_release(&g);
	if (r == 0) {
		/* append the bind to the state, so down unbinds first */
		struct strbuf real = STRBUF_INIT, line = STRBUF_INIT;
		FILE *f;

		sysroot_path(&real, st.file);
		strbuf_addf(&line, "bind %s\n", p.buf);
		f = fopen(real.buf, "ae");
		if (!f || fputs(line.buf, f) < 0)
			r = -errno;
		if (f && fclose(f) != 0 && r == 0)
			r = -errno;
		strbuf_release(&real);
		strbuf_release(&line);
	}
out:
	gadget_state_release(&st);
	strbuf_release(&p);
	return r;
}
