/*
 * cmd_tags.c -- lzctl tag: list, rename, delete an account's tags
 * (lz-links(8), "Organising links").  The rules are link/tagops.h's.
 */
#include "config.h"

#include <stdio.h>

#include "link/tagops.h"
#include "lzctl.h"
#include "store/tags.h"
#include "verr.h"

static void
print_tag(const char *name, long long n, void *arg)
{
	(void)arg;
	printf("%s\t%lld\n", name, n);
}

static int
tag_list(struct ctl_args *a)
{
	int64_t	 account;

	ctl_links_open();
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	printf("TAG\tLINKS\n");
	return store_tag_list(&ctl_links_db, account, print_tag, NULL) < 0;
}

/* The exit status of a failed tagops call. */
static int
failed(const struct lz_verr *e)
{
	ctl_err("%s", e->msg);
	return e->status == 404 ? EXIT_NOTFOUND : e->status == 400 ?
	    EXIT_USAGE : 1;
}

static int
tag_rename(struct ctl_args *a)
{
	struct tag_renamed	 t;
	struct lz_verr		 e;
	int64_t			 account;

	ctl_links_open();
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (tagops_rename(&ctl_links_db, account, a->argv[1], a->argv[2], &t,
	    &e) == -1)
		return failed(&e);
	printf("%s -> %s%s\n", t.from, t.name, t.merged ? " (merged)" : "");
	return 0;
}

static int
tag_delete(struct ctl_args *a)
{
	struct lz_verr	 e;
	char		 name[TAG_BYTES];
	int64_t		 account;

	ctl_links_open();
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (tagops_delete(&ctl_links_db, account, a->argv[1], name, &e) == -1)
		return failed(&e);
	printf("deleted %s\n", name);
	return 0;
}

static const struct ctl_cmd tag_cmds[] = {
	{ "list", "ACCOUNT", 1, 1, 0, tag_list, { { 0 } } },
	{ "rename", "ACCOUNT TAG NEW-NAME", 3, 3, 0, tag_rename, { { 0 } } },
	{ "delete", "ACCOUNT TAG", 2, 2, 0, tag_delete, { { 0 } } },
};

const struct ctl_group ctl_tag = CTL_GROUP("tag", NULL, tag_cmds);
