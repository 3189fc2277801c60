/*
 * qr.h -- a short URL as a QR code (DESIGN 3.9).  libqrencode makes the
 * symbol (never a QR encoder of our own); this writes it as SVG, or as a
 * PNG through libpng.  Pure: no request, no database, so the unit tests
 * and the fuzzers call it as it is.
 *
 * The image is square: the symbol and a quiet zone of margin modules on
 * each side, n modules across.  Each module is a whole number of pixels,
 * size / n rounded down but at least 1, so the image is at most size
 * pixels wide (more only when size is less than n) and never blurred.
 * The SVG says the same width and height, and its modules are unit
 * squares of one path in a viewBox of n; it holds no text of the URL.
 */
#ifndef LZ_QR_H
#define LZ_QR_H

#include <stddef.h>

enum qr_format { QR_SVG, QR_PNG };

/* Error correction: about 7, 15, 25 and 30 % of the symbol restorable. */
enum qr_ecc { QR_ECC_L, QR_ECC_M, QR_ECC_Q, QR_ECC_H };

#define QR_SIZE_MIN		64
#define QR_SIZE_MAX		2048	/* bounds a request's work */
#define QR_SIZE_DEFAULT		512
#define QR_MARGIN_MAX		16
#define QR_MARGIN_DEFAULT	4	/* the quiet zone the standard asks */

struct qr_opts {
	enum qr_format	 format;
	int		 size;		/* QR_SIZE_MIN..QR_SIZE_MAX pixels */
	int		 margin;	/* 0..QR_MARGIN_MAX modules */
	enum qr_ecc	 ecc;
};

/*
 * Encodes text (8-bit, case kept) as a QR code image.  Returns 0 with
 * the image in *out (caller frees), its length in *len and its width in
 * pixels in *px; -1 when text does not fit a QR code or on an error of
 * the libraries.
 */
int	qr_render(const char *text, const struct qr_opts *, char **out,
	    size_t *len, int *px);

#endif
