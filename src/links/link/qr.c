/*
 * qr.c -- QR codes of short URLs: libqrencode's symbol as SVG or PNG.
 */
#include "config.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <qrencode.h>

#include "link/qr.h"
#include "util.h"

/* Module x, y of the symbol (outside it: the quiet zone) is dark. */
static int
dark(const QRcode *q, int margin, int x, int y)
{
	x -= margin;
	y -= margin;
	if (x < 0 || y < 0 || x >= q->width || y >= q->width)
		return 0;
	return q->data[y * q->width + x] & 1;
}

/* The symbol as one path of unit squares, a run of dark modules of a row
 * at a time, in a viewBox of n modules. */
static void
write_svg(const QRcode *q, int margin, int px, struct lz_buf *b)
{
	int	 n = q->width + 2 * margin, x, y, run;

	lz_buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "shape-rendering=\"crispEdges\">\n"
	    "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
	    "<path fill=\"#000000\" d=\"", px, px, n, n, n, n);
	for (y = margin; y < margin + q->width; y++)
		for (x = margin; x < margin + q->width; x += run) {
			for (run = 0; dark(q, margin, x + run, y); run++)
				continue;
			if (run == 0)
				run = 1;
			else
				lz_buf_printf(b, "M%d %dh%dv1h-%dz", x, y, run,
				    run);
		}
	lz_buf_puts(b, "\"/>\n</svg>\n");
}

static void
png_to_buf(png_structp p, png_bytep data, size_t len)
{
	lz_buf_add(png_get_io_ptr(p), data, len);
}

static void
png_no_flush(png_structp p)
{
	(void)p;
}

/* The symbol as a 1-bit grey PNG, scale pixels a module. */
static int
write_png(const QRcode *q, int margin, int scale, struct lz_buf *b)
{
	png_structp	 p;
	png_infop	 info;
	unsigned char	*row;
	int		 n = q->width + 2 * margin, px = n * scale, x, y, i;

	if ((p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL,
	    NULL)) == NULL)
		return -1;
	if ((info = png_create_info_struct(p)) == NULL) {
		png_destroy_write_struct(&p, NULL);
		return -1;
	}
	row = xmalloc(((size_t)px + 7) / 8);
	if (setjmp(png_jmpbuf(p))) {
		png_destroy_write_struct(&p, &info);
		free(row);
		return -1;
	}
	png_set_write_fn(p, b, png_to_buf, png_no_flush);
	png_set_IHDR(p, info, (png_uint_32)px, (png_uint_32)px, 1,
	    PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(p, info);
	for (y = 0; y < n; y++) {
		/* 1 is white; a module's pixels are bits x * scale on. */
		memset(row, 0xff, ((size_t)px + 7) / 8);
		for (x = 0; x < n; x++)
			if (dark(q, margin, x, y))
				for (i = x * scale; i < (x + 1) * scale; i++)
					row[i / 8] &= (unsigned char)~(0x80 >>
					    (i % 8));
		for (i = 0; i < scale; i++)
			png_write_row(p, row);
	}
	png_write_end(p, NULL);
	png_destroy_write_struct(&p, &info);
	free(row);
	return 0;
}

int
qr_render(const char *text, const struct qr_opts *o, char **out,
    size_t *len, int *px)
{
	static const QRecLevel	 levels[] = { QR_ECLEVEL_L, QR_ECLEVEL_M,
	    QR_ECLEVEL_Q, QR_ECLEVEL_H };
	struct lz_buf		 b = LZ_BUF_INIT;
	QRcode			*q;
	int			 n, scale, rc = 0;

	if ((q = QRcode_encodeString(text, 0, levels[o->ecc], QR_MODE_8,
	    1)) == NULL)
		return -1;
	n = q->width + 2 * o->margin;
	scale = o->size / n > 0 ? o->size / n : 1;
	*px = n * scale;
	if (o->format == QR_SVG)
		write_svg(q, o->margin, *px, &b);
	else
		rc = write_png(q, o->margin, scale, &b);
	QRcode_free(q);
	if (rc == -1) {
		lz_buf_free(&b);
		return -1;
	}
	*len = b.len;
	*out = lz_buf_detach(&b);
	return 0;
}
