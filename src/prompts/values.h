/*
 * values.h -- the closed value sets of the prompt library, in one place:
 * the importer accepts only these, the parameters take them, and the
 * OpenAPI document lists the same (t/e2e/test_prompts_openapi.py checks
 * that they agree).  Each is NULL-terminated.
 */
#ifndef LZ_VALUES_H
#define LZ_VALUES_H

extern const char *const val_prompt_categories[];	/* image video music tutorial */
extern const char *const val_model_categories[];	/* ... and audio */
/* image video music audio text */
#define VAL_INTEGRATION_CATEGORIES	5
extern const char *const val_integration_categories[
	    VAL_INTEGRATION_CATEGORIES + 1];
extern const char *const val_difficulties[];
extern const char *const val_verifications[];
extern const char *const val_model_statuses[];
extern const char *const val_record_types[];
extern const char *const val_generator_kinds[];
extern const char *const val_keyword_categories[];

/* Is s a slug or key: 1 to 100 of [a-z0-9-]? */
int	val_slug_ok(const char *s);
/* The index of s in set, or -1. */
int	val_index(const char *const *set, const char *s);

#endif
