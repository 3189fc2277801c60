/*
 * link.h -- the link: its fields, the validation of a create body (spec
 * 2.1, DESIGN 3.2) and its JSON representation.  The public API, the
 * dashboard and lzctl all go through these functions.
 */
#ifndef LZ_LINK_H
#define LZ_LINK_H

#include <stdint.h>

#include <jansson.h>

#include "sizes.h"

struct lz_conf;
struct lz_verr;

enum link_mode {
	MODE_SIMPLE = 0,
	MODE_AB,
	MODE_DEVICE,
	MODE_GEO
};

enum link_pixel {
	PIXEL_FB = 0,
	PIXEL_GA,
	PIXEL_GTM,
	PIXEL_TIKTOK,
	PIXEL_LINE,
	PIXEL__MAX
};

enum link_status {
	STATUS_ACTIVE = 0,
	STATUS_EXPIRED,
	STATUS_CAPPED,
	STATUS_DISABLED		/* flagged by the safety scan */
};


#define NOTES_MAX	2000	/* characters of a link's notes */

struct link {
	int64_t		 id;
	int64_t		 account_id;
	char		*slug;		/* NULL: generate */
	char		*target_url;
	char		*title;		/* NULL: none */
	enum link_mode	 mode;
	json_t		*variants;	/* NULL for simple */
	int		 redirect_type;	/* 301 or 302 */
	json_t		*og;		/* NULL: none */
	char		*pixel[PIXEL__MAX];
	int		 escape_inapp;
	int64_t		 expires_at;	/* ms; 0: never */
	int64_t		 max_clicks;	/* 0: unlimited */
	json_t		*utm;		/* NULL: none */
	char		*password;	/* create only: the plain text */
	char		*password_hash;
	int64_t		 clicks;	/* counted (human) clicks */
	int64_t		 conversions;	/* counted conversions */
	json_t		*revenue;	/* currency -> integer micro-units
					   (amount.h), or NULL */
	int64_t		 created_at;
	int64_t		 deleted_at;	/* 0: live */
	int64_t		 flagged_at;	/* 0: not flagged by the safety scan */
	char		*flag_reason;
	int64_t		 revision;	/* edits so far (store/links.h) */
	int64_t		 domain_id;	/* 0: the default domain */
	char		*domain;	/* its host; NULL: the default */
	char		*expired_url;	/* where visitors go once it expired
					   or is capped; NULL: the domain's */
	json_t		*tags;		/* names (link/tag.h), or NULL */
	char		*notes;		/* NULL: none */
	int		 archived;
};

extern const char *const link_mode_names[];	/* NULL-terminated */
extern const char *const link_pixel_names[];	/* "pixel_fb", ... */
extern const char *const link_status_names[];	/* by enum link_status,
						   NULL-terminated */

void	link_free(struct link *);

/*
 * Validates a create body into l (zeroed by the caller), applying the
 * defaults: every field's syntax and rules, nothing that needs the
 * process's configuration or database.  Where the destinations lead is
 * scanned by the operation that stores the link (safety_link, scan.h),
 * and whether the slug is reserved there too.  An expires_at must be
 * later than now (ms; INT64_MIN: any time).  Returns 0, or -1 with e
 * filled (400, naming the field).
 */
int	link_parse(const json_t *body, int64_t now, struct link *l,
	    struct lz_verr *e);

/*
 * The create body of a stored link: its create fields as link_parse
 * takes them back (expires_at to the millisecond), without slug and
 * password.  A new object.
 */
json_t	*link_body(const struct link *);

/*
 * An edit (DESIGN 3.9): applies patch, a JSON merge patch (RFC 7396) of
 * the create fields, to link_body(stored) and validates the result with
 * link_parse into l (zeroed by the caller), so that every rule of create
 * holds for the edited link.  The representation's other members (slug,
 * id, short_url, has_password, status, created_at, stats) are read-only:
 * 400 read_only_field naming the member; unknown members 400
 * unknown_field.  An expires_at the patch sets must be later than now; a
 * kept one is kept, even when it passed (the link stays expired).
 * password: a text is the new password (l->password, to hash), null
 * removes it, absent keeps the stored hash (l->password_hash).  l gets
 * stored's id, account, slug and revision.  Returns 0, or -1 with e
 * filled.
 */
int	link_parse_patch(const struct link *stored, const json_t *patch,
	    int64_t now, struct link *l, struct lz_verr *e);

/* 1 when s is a syntactically valid slug (1-64 of [A-Za-z0-9_-]). */
int	slug_valid(const char *s);
/* 1 when s is a valid suffix, the channel label of /slug/suffix (1 to
 * SUFFIX_MAX of [A-Za-z0-9_.-]); conversions name channels the same way. */
int	suffix_valid(const char *s);
/* 1 when s is reserved (built-in list or reserved_slugs of conf),
 * compared without regard to case. */
int	slug_reserved(const struct lz_conf *, const char *s);

enum link_status link_status(const struct link *, int64_t now);

/* The link representation of DESIGN 3.2; stats from l's counters, revenue
 * as JSON numbers (amount_json). */
json_t	*link_json(const struct link *, const char *base_url, int64_t now);

/* Where l's short URLs start: base_url on the default domain, else
 * base_url's scheme and l's domain ("https://go.brand.example");
 * caller frees. */
char	*link_base(const char *base_url, const struct link *);
/* link_base + "/" + slug [+ "/" + suffix (NULL: none)]; caller frees. */
char	*link_short_url(const char *base_url, const struct link *,
	    const char *suffix);

#endif
