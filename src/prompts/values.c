/*
 * values.c -- the closed value sets (values.h).
 */
#include "config.h"

#include <string.h>

#include "values.h"

const char *const val_prompt_categories[] = {
	"image", "video", "music", "tutorial", NULL
};
const char *const val_model_categories[] = {
	"image", "video", "music", "tutorial", "audio", NULL
};
const char *const val_integration_categories[VAL_INTEGRATION_CATEGORIES + 1] = {
	"image", "video", "music", "audio", "text", NULL
};
const char *const val_difficulties[] = {
	"beginner", "intermediate", "advanced", NULL
};
const char *const val_verifications[] = {
	"verified", "unverified", NULL
};
const char *const val_model_statuses[] = {
	"active", "preview", "deprecated", "retired", NULL
};
const char *const val_record_types[] = {
	"model", "model_family", "service", NULL
};
const char *const val_generator_kinds[] = {
	"web", "app", "api", "discord", "plugin", "none", NULL
};
const char *const val_keyword_categories[] = {
	"technique", "style", "composition", "lighting", "camera",
	"parameter", "audio", "motion", "workflow", "model", NULL
};

int
val_index(const char *const *set, const char *s)
{
	int	 i;

	for (i = 0; set[i] != NULL; i++)
		if (strcmp(set[i], s) == 0)
			return i;
	return -1;
}

int
val_slug_ok(const char *s)
{
	size_t	 n = strlen(s);

	return n >= 1 && n <= 100 && strspn(s,
	    "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}
