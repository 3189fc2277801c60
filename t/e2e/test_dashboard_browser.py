"""The dashboard in a real headless browser (Debian's chromium, driven by
chromedriver through python3-selenium) against real nginx and lz-links on
loopback: sign up, create a link with options, see it listed, edit it,
download its QR code and clicks, search the list, generate an API key
and use it, revoke it and get 401, the account and conversion
sections, the language switch, a CSRF refusal, and XSS attempts in titles
and og fields rendered as inert text.  Then the short links' own pages,
where accounts put their tags: each runs in an opaque origin from which a
tag can read nothing of the signed-in dashboard, and each still does its
job (DESIGN 3.11); the dashboard keeps other origins' windows off
(Cross-Origin-Opener-Policy).

Screenshots of every section, at desktop and phone widths, are saved in
t/screenshots/ of the build tree for review."""

import calendar
import csv
import http.server
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import receiver  # noqa: E402
from test_redirect import FACEBOOK_CRAWLER, INSTAGRAM_IOS  # noqa: E402

try:
    import selenium  # noqa: F401
except ImportError:
    # Debian's python3-selenium, when the tests run under another python3.
    sys.path.append("/usr/lib/python3/dist-packages")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException, StaleElementReferenceException)
from selenium.webdriver.common.action_chains import ActionChains  # noqa
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = os.environ.get("LZ_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("LZ_CHROMEDRIVER", "/usr/bin/chromedriver")
SHOTS = os.path.join(lzenv.BUILDDIR, "t", "screenshots")

CHROME_UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
             "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36")
XSS_TITLE = '<img src=x onerror="window.__xss=1">Spring <b>sale</b>'
XSS_OG = '"><script>window.__xss=2</script><svg onload="window.__xss=3">'

# A million clicks of :link from :t0 on, :step ms apart, as raw rows.
MILLION = """
INSERT INTO clicks (link_id, at, suffix, country, device, os, browser,
    referrer, referrer_host, variant, visitor, bot)
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s
    WHERE i + 1 < 1000000)
SELECT :link, :t0 + i * :step,
    rtrim(substr('  igfbml', 1 + 2 * (i % 4), 2)),
    substr('TWJPUSDEFRGBKR', 1 + 2 * (i % 7), 2),
    CASE i % 3 WHEN 0 THEN 'mobile' WHEN 1 THEN 'desktop' ELSE 'tablet' END,
    CASE i % 3 WHEN 0 THEN 'ios' WHEN 1 THEN 'windows' ELSE 'android' END,
    CASE i % 2 WHEN 0 THEN 'safari' ELSE 'chrome' END,
    'https://r' || (i % 9) || '.example/', 'r' || (i % 9) || '.example',
    CAST(i % 2 AS TEXT),
    CAST(printf('%016d', (i * 2654435761) % 50000) AS BLOB), i % 25 = 0
FROM s
"""

inst = None
drv = None
profile = None
rx = None


def setUpModule():
    global inst, drv, profile, rx
    profile = tempfile.mkdtemp(prefix="lz-chromium-")
    ca = receiver.CA(os.path.join(profile, "ca"))
    inst = lzenv.Instance("dash-browser", extra_conf="signup = open\n"
                          # the Import test's 2,500 links
                          "plan.free.links = 100000\n"
                          "webhook_allow_loopback = yes\n"
                          "webhook_timeout = 2\n"
                          "webhook_ca_file = %s\n" % ca.ca)
    try:
        inst.start()
        rx = receiver.Receiver(ca).start()
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
                  "--disable-quic", "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--lang=en-US",
                  "--window-size=1280,900", "--user-data-dir=" + profile,
                  # Destinations of links: a public-looking name (the
                  # safety scan refuses loopback) for a local server.
                  "--host-resolver-rules=MAP landing.example 127.0.0.1"):
            o.add_argument(a)
        drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
        drv.set_page_load_timeout(20)
        drv.set_script_timeout(10)
    except Exception:
        tearDownModule()
        raise
    os.makedirs(SHOTS, exist_ok=True)


def tearDownModule():
    if drv is not None:
        drv.quit()
    if rx is not None:
        rx.stop()
    if profile:
        shutil.rmtree(profile, ignore_errors=True)
    if inst is not None:
        inst.stop()


def url(path):
    return "http://127.0.0.1:%d%s" % (inst.links_port, path)


def wait(cond, timeout=10):
    # Rows are re-rendered as data arrives: a row read while replaced is
    # simply read again.
    return WebDriverWait(drv, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,
                                             NoSuchElementException)).until(
        lambda d: cond())


def q(css):
    return drv.find_element(By.CSS_SELECTOR, css)


def click(css):
    """Clicks the element css names, found again when the page re-rendered
    it between finding and clicking (a list reloaded by an earlier
    action's answer: a stale element)."""
    wait(lambda: q(css).click() or True)


def qa(css):
    return drv.find_elements(By.CSS_SELECTOR, css)


def visible(css):
    els = qa(css)
    return els[0] if els and els[0].is_displayed() else None


def fill(css, text):
    # Typed again if a view still settling took the keys (seen at load 12:
    # a key made without its name).
    for _ in range(3):
        el = q(css)
        el.clear()
        el.send_keys(text)
        if el.get_attribute("value") or not text:
            return
        time.sleep(0.2)
    raise AssertionError("%s: could not type %r" % (css, text))


def go(hash_):
    drv.execute_script("location.hash = arguments[0]", hash_)


def fresh_timings():
    """Empty the page's resource timings, which tests read to find the
    page's own last request: a browser keeps 250 by default, and a page
    that has lived through the tests before may have filled them (the
    newest request is then missing, and an old one is found instead)."""
    drv.execute_script("performance.clearResourceTimings();"
                       "performance.setResourceTimingBufferSize(100000);")


# WCAG 2 contrast of every visible piece of text against the background
# it is drawn on: 4.5:1, or 3:1 for large text (24px, or 18.66px bold).
CONTRAST_JS = """
const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 :
  Math.pow((c + 0.055) / 1.055, 2.4); };
const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) +
  0.0722 * lin(b);
const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
function bg(el) {
  for (; el; el = el.parentElement) {
    const c = rgba(getComputedStyle(el).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] >= 0.99)) return c;
  }
  return [255, 255, 255];
}
const bad = [];
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  const el = n.parentElement;
  if (!n.textContent.trim() || !el || el.closest("[hidden], .sr-only, svg"))
    continue;
  if (!el.getClientRects().length) continue;   /* not rendered */
  const cs = getComputedStyle(el);
  const fg = rgba(cs.color).slice(0, 3);
  const b = bg(el);
  const l1 = lum(fg), l2 = lum(b.slice(0, 3));
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const px = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
  const need = px >= 24 || (bold && px >= 18.66) ? 3 : 4.5;
  if (ratio < need) bad.push(n.textContent.trim().slice(0, 40) + " " +
    ratio.toFixed(2));
}
return bad;
"""
CONTRAST_FAILS = []


def shot(name):
    """Full-page screenshots at a desktop and a phone width, and the
    contrast of the page's text."""
    CONTRAST_FAILS.extend("%s: %s" % (name, b) for b in
                          drv.execute_script(CONTRAST_JS))
    for label, width, mobile in (("desktop", 1280, False),
                                 ("phone", 390, True)):
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 800, "deviceScaleFactor": 1,
            "mobile": mobile})
        time.sleep(0.15)
        h = drv.execute_script("return document.documentElement"
                               ".scrollHeight")
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": min(max(h, 600), 5000),
            "deviceScaleFactor": 1, "mobile": mobile})
        time.sleep(0.1)
        drv.save_screenshot(os.path.join(SHOTS, "%s-%s.png" %
                                         (name, label)))
    drv.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


class Shop:
    """A shop's own site on another origin (another loopback port): its
    thank-you page holds what the Conversions section says to paste."""

    def __init__(self, html):
        page = html.encode()

        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *a):
                pass

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = "http://127.0.0.1:%d/thanks" % self.srv.server_port
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def stop(self):
        self.srv.shutdown()
        self.srv.server_close()


def no_xss():
    return drv.execute_script("return window.__xss === undefined")


class Dashboard(unittest.TestCase):
    """One user's way through the dashboard, step by step (in order)."""

    state = {}

    def test_01_sign_up(self):
        drv.get(url("/dashboard/"))
        wait(lambda: q("body").get_attribute("data-ready") == "1")
        self.assertTrue(visible("#signin-form"))
        self.assertFalse(visible("#nav"))
        shot("signin")
        click("#auth-switch")
        wait(lambda: visible("#signup-form"))
        fill("#signup-email", "browser@example.com")
        fill("#signup-password", "short")
        click("#signup-form button[type=submit]")
        wait(lambda: q("#signup-form [data-error]").text != "")
        self.assertIn("8", q("#signup-form [data-error]").text)
        self.assertEqual(q("#signup-password").get_attribute("aria-invalid"),
                         "true")
        fill("#signup-password", "a good long password")
        click("#signup-form button[type=submit]")
        wait(lambda: visible("#view-links"))
        self.assertTrue(visible("#nav"))
        cookies = drv.get_cookies()
        sess = [c for c in cookies if c["name"] == "lz_session"]
        self.assertEqual(len(sess), 1)
        self.assertTrue(sess[0]["httpOnly"])
        self.assertEqual(sess[0]["sameSite"], "Lax")
        # Not readable by scripts.
        self.assertNotIn("lz_session", drv.execute_script(
            "return document.cookie"))

    def test_02_create_link_with_options(self):
        go("#links")
        wait(lambda: visible("#link-form"))
        fill("#l-target_url", "https://example.com/landing")
        fill("#l-slug", "spring")
        fill("#l-title", XSS_TITLE)
        Select(q("#l-mode")).select_by_value("ab")
        wait(lambda: visible("#variants-ab"))
        fill("#l-variants-0-url", "https://a.example.com/")
        fill("#l-variants-0-weight", "30")
        fill("#l-variants-1-url", "https://b.example.com/")
        fill("#l-variants-1-weight", "70")
        Select(q("#l-redirect_type")).select_by_value("301")
        for d in qa("#link-form details"):
            if not d.get_attribute("open"):
                d.find_element(By.TAG_NAME, "summary").click()
        fill("#l-og-title", XSS_OG)
        fill("#l-og-description", "A <i>preview</i> & more")
        fill("#l-og-image", "https://example.com/og.png")
        fill("#l-pixel_fb", "1234567890")
        fill("#l-pixel_ga", "G-ABC1234")
        fill("#l-pixel_gtm", "GTM-ABCD12")
        fill("#l-pixel_tiktok", "C1234567890ABCDEF")
        fill("#l-pixel_line", "abcd-1234-efgh")
        click("#l-escape_inapp")
        fill("#l-max_clicks", "500")
        fill("#l-password", "open sesame")
        # A date-time in the browser's zone, a year from now.
        drv.execute_script(
            "const d = new Date(Date.now() + 365 * 86400000);"
            "d.setSeconds(0, 0);"
            "const p = (n) => String(n).padStart(2, '0');"
            "document.querySelector('#l-expires_at').value = d.getFullYear()"
            " + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' +"
            " p(d.getHours()) + ':' + p(d.getMinutes());")
        fill("#l-utm-source", "newsletter")
        fill("#l-utm-medium", "email")
        fill("#l-utm-campaign", "spring")
        shot("links-form")
        click("#link-form button[type=submit]")
        wait(lambda: visible("#link-created"))
        short = q("#link-created-url").get_attribute("value")
        self.assertEqual(short, url("/spring"))
        wait(lambda: len(qa("#links-table tbody tr")) == 1)
        row = q("#links-table tbody tr")
        # The title shows as the characters typed: no element was made.
        self.assertIn(XSS_TITLE, row.text)
        self.assertEqual(row.find_elements(By.TAG_NAME, "img"), [])
        self.assertEqual(row.find_elements(By.TAG_NAME, "b"), [])
        self.assertTrue(no_xss())
        # Stored with every option, through the same rules as the API.
        (lid, mode, variants, rt, og, fb, ga, gtm, tt, line, esc, exp, mc,
         utm, pw) = inst.sql(
            "SELECT id, mode, variants, redirect_type, og, pixel_fb, "
            "pixel_ga, pixel_gtm, pixel_tiktok, pixel_line, escape_inapp, "
            "expires_at, max_clicks, utm, password_hash FROM links WHERE "
            "slug = 'spring'")[0]
        self.assertEqual((mode, rt, fb, ga, gtm, tt, line, esc, mc),
                         ("ab", 301, "1234567890", "G-ABC1234", "GTM-ABCD12",
                          "C1234567890ABCDEF", "abcd-1234-efgh", 1, 500))
        self.assertIn('"weight":70', variants)
        self.assertIn("<script>window.__xss=2</script>", og)
        self.assertIn('"campaign":"spring"', utm)
        self.assertTrue(pw.startswith("$argon2id$"))
        self.assertGreater(exp, time.time() * 1000 + 360 * 86400000)
        self.state["link_id"] = lid
        # A second link, simple, made on a phone-sized page.
        fill("#l-target_url", "https://example.com/simple")
        fill("#l-title", "Plain link")
        click("#link-form button[type=submit]")
        wait(lambda: len(qa("#links-table tbody tr")) == 2)
        self.state["plain"] = inst.sql("SELECT id, slug FROM links WHERE "
                                       "title = 'Plain link'")[0]
        shot("links")

    def test_03_errors_name_the_field(self):
        go("#links")
        wait(lambda: visible("#link-form"))
        fill("#l-target_url", "https://example.com/x")
        fill("#l-slug", "spring")
        click("#link-form button[type=submit]")
        wait(lambda: q("#link-form [data-error]").text != "")
        self.assertEqual(q("#l-slug").get_attribute("aria-invalid"), "true")
        self.assertEqual(drv.switch_to.active_element.get_attribute("id"),
                         "l-slug")
        fill("#l-slug", "")
        fill("#l-pixel_fb", "not digits")
        click("#link-form button[type=submit]")
        wait(lambda: q("#l-pixel_fb").get_attribute("aria-invalid") == "true")
        q("#link-form").find_element(By.CSS_SELECTOR, "#l-pixel_fb").clear()

    def test_04_developer_api(self):
        go("#api")
        wait(lambda: visible("#key-form"))
        fill("#key-name", "<b>ci</b> server")
        click("#key-form button[type=submit]")
        wait(lambda: visible("#key-new"))
        secret = q("#key-new-secret").get_attribute("value")
        self.assertRegex(secret, r"^lk_live_[0-9A-Za-z]{28}$")
        wait(lambda: len(qa("#keys-table tbody tr")) == 1)
        row = q("#keys-table tbody tr")
        self.assertIn(secret[:12] + "…" + secret[-4:], row.text)
        self.assertIn("<b>ci</b> server", row.text)
        self.assertNotIn(secret, row.text)
        shot("api")
        # The key works against the public API...
        r = inst.api("GET", "/api/v1/links", secret)
        self.assertEqual(r.status, 200, r)
        slugs = [l["slug"] for l in r.json()["links"]]
        self.assertIn("spring", slugs)
        r = inst.api("POST", "/api/v1/links", secret,
                     {"target_url": "https://example.com/from-api"})
        self.assertEqual(r.status, 201, r)
        # ...until it is revoked here.
        row.find_element(By.CSS_SELECTOR, "button.danger").click()
        drv.switch_to.alert.accept()
        wait(lambda: "revoked" in q("#keys-table tbody tr").text)
        r = inst.api("GET", "/api/v1/links", secret)
        self.assertEqual(r.status, 401, r)
        self.assertEqual(r.json()["error"], "revoked_api_key")
        # Leaving the section forgets the secret.
        go("#account")
        wait(lambda: visible("#view-account"))
        go("#api")
        wait(lambda: visible("#view-api"))
        self.assertEqual(q("#key-new-secret").get_attribute("value"), "")

    def test_05_account(self):
        go("#account")
        wait(lambda: "browser@example.com" in q("#account-info").text)
        self.assertIn("free", q("#account-info").text)
        # Two API calls were made with the key, one refused after revoking
        # counts nothing: 2 of 1,000.
        wait(lambda: "2 of 1,000" in q("#quota-meter").text)
        self.assertIn("3 of 100", q("#links-meter").text)
        shot("account")

    def test_06_conversions(self):
        go("#conversions/%d" % self.state["link_id"])
        wait(lambda: "slug=spring" in q("#conv-pixel").get_attribute("value"))
        fill("#conv-value", "19.90")
        fill("#conv-currency", "twd")
        fill("#conv-suffix", "ig")
        pixel = q("#conv-pixel").get_attribute("value")
        self.assertIn(url("/api/conv?slug=spring&amp;value=19.90&amp;"
                          "currency=TWD&amp;suffix=ig"), pixel)
        post = q("#conv-post").get_attribute("value")
        self.assertIn('{"slug":"spring","value":19.9,"currency":"TWD",'
                      '"suffix":"ig"}', post)
        self.assertIn('fetch("%s"' % url("/api/conv"), post)
        self.assertTrue(post.startswith("<script>\n"))
        self.assertTrue(post.endswith("\n</script>"))
        # Typed text never closes the snippet's script element.
        fill("#conv-suffix", "</script><b>")
        post = q("#conv-post").get_attribute("value")
        self.assertEqual(post.count("</script>"), 1)
        self.assertIn("\\u003c/script>\\u003cb>", post)
        fill("#conv-suffix", "ig")
        self.assertTrue(visible("#conv-plan"))   # free plan
        shot("conversions")

    def test_07_language_switch(self):
        go("#links")
        wait(lambda: visible("#view-links"))
        Select(q("#lang")).select_by_value("zh-Hant")
        wait(lambda: q("#nav a[data-view=links]").text == "短網址")
        self.assertEqual(q("html").get_attribute("lang"), "zh-Hant")
        self.assertEqual(q("#links-title").text, "短網址")
        self.assertIn("啟用中", q("#links-table tbody").text)
        shot("links-zh")
        # Kept across reloads.
        drv.refresh()
        wait(lambda: q("body").get_attribute("data-ready") == "1")
        self.assertEqual(q("#nav a[data-view=account]").text, "帳戶")
        Select(q("#lang")).select_by_value("en")
        wait(lambda: q("#nav a[data-view=links]").text == "Links")

    def test_08_keyboard(self):
        # Every section is reachable from the keyboard: Tab from the top
        # reaches the skip link, then the navigation.
        drv.get(url("/dashboard/"))        # a fresh load, focus at the top
        wait(lambda: q("body").get_attribute("data-ready") == "1")
        ActionChains(drv).send_keys(Keys.TAB).perform()
        self.assertEqual(drv.switch_to.active_element.get_attribute("class"),
                         "skip")
        seen = []
        for _ in range(12):
            ActionChains(drv).send_keys(Keys.TAB).perform()
            seen.append(drv.switch_to.active_element.get_attribute("href")
                        or "")
        for section in ("#overview", "#links", "#api", "#import",
                        "#webhooks", "#conversions", "#members", "#account"):
            self.assertTrue(any(h.endswith(section) for h in seen),
                            (section, seen))
        # Every form control has a label.
        unlabelled = drv.execute_script(
            "return [...document.querySelectorAll('input, select, textarea')]"
            ".filter(e => e.type !== 'hidden' && !e.labels.length && "
            "!e.getAttribute('aria-label')).map(e => e.id || e.name)")
        self.assertEqual(unlabelled, [])

    def test_09_csrf_refused_in_browser(self):
        # A script of the page that leaves the token out is refused; so is
        # one with a made-up token.  Nothing is created.
        status = drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "Promise.all([fetch('/dashboard/api/keys', {method: 'POST',"
            " headers: {'Content-Type': 'application/json'}, body: '{}'}),"
            " fetch('/dashboard/api/keys', {method: 'POST', headers: "
            "{'Content-Type': 'application/json', 'X-CSRF-Token': "
            "'A'.repeat(43)}, body: '{}'})])"
            ".then(rs => Promise.all(rs.map(r => r.json().then(j => "
            "[r.status, j.error])))).then(done)")
        self.assertEqual(status, [[403, "csrf_token_invalid"],
                                  [403, "csrf_token_invalid"]])
        self.assertEqual(inst.sql("SELECT count(*) FROM api_keys")[0][0], 1)

    def test_10_webhooks(self):
        go("#webhooks")
        wait(lambda: visible("#hook-form"))
        fill("#hook-url", rx.url("/browser"))
        click("#hook-ev-click")             # link.created only
        click("#hook-form button[type=submit]")
        wait(lambda: visible("#hook-secret-box"))
        secret = q("#hook-secret").get_attribute("value")
        self.assertRegex(secret, r"^whsec_[0-9A-Za-z]{32}$")
        card = q("article.hook")
        self.assertIn(rx.url("/browser"), card.text)
        self.assertIn("link.created", card.text)
        self.assertNotIn("click,", card.text)
        # A test event from the dashboard; lz-hooks (cron's job) sends it.
        card.find_element(By.XPATH, ".//button[.='Send test event']").click()
        wait(lambda: "Test event queued" in q("#status").text)
        p = subprocess.run([lzenv.prog("lz-hooks"), "-f", inst.conf],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        [req] = rx.wait(1, path="/browser")
        self.assertEqual(req.header("X-Lz-Event"), "test")
        self.assertTrue(req.verify(secret))
        q("article.hook").find_element(
            By.XPATH, ".//button[.='Refresh log']").click()
        wait(lambda: "delivered" in q("article.hook table").text)
        row = q("article.hook table tbody tr")
        self.assertIn("test", row.text)
        self.assertIn("200", row.text)
        shot("webhooks")

    def test_10_domains(self):
        inst.ctl("domain", "add", "go.shared.test")
        go("#domains")
        wait(lambda: visible("#dom-form"))
        cards = qa("article.domain")
        self.assertEqual(cards[0].get_attribute("data-host"), "127.0.0.1")
        self.assertIn("default", cards[0].text)
        self.assertIn("go.shared.test",
                      [c.get_attribute("data-host") for c in cards])
        # An account domain of one's own: the record to publish.
        fill("#dom-host", "My-Brand.test")
        click("#dom-form button[type=submit]")
        wait(lambda: visible('article.domain[data-host="my-brand.test"]'))
        card = q('article.domain[data-host="my-brand.test"]')
        self.assertIn("not verified", card.text)
        values = [i.get_attribute("value") for i in
                  card.find_elements(By.CSS_SELECTOR, ".record input")]
        self.assertEqual(values[:2], ["TXT", "_lz-verify.my-brand.test"])
        self.assertRegex(values[2], r"^lz-verify=[0-9A-Za-z]{32}$")
        # Its addresses: one refused by the scan names its field, then set.
        fill("#dom-my-brand-test-root_url", "http://10.0.0.1/")
        card.find_element(By.CSS_SELECTOR, "form.urls button").click()
        wait(lambda: q("#dom-my-brand-test-root_url")
             .get_attribute("aria-invalid") == "true")
        fill("#dom-my-brand-test-root_url", "https://brand.example/")
        card.find_element(By.CSS_SELECTOR, "form.urls button").click()
        wait(lambda: "Addresses saved" in q("#status").text)
        self.assertEqual(inst.sql("SELECT root_url FROM domains WHERE host "
                                  "= 'my-brand.test'")[0][0],
                         "https://brand.example/")
        # Taken: said in the form.
        fill("#dom-host", "go.shared.test")
        click("#dom-form button[type=submit]")
        wait(lambda: "taken" in q("#dom-form [data-error]").text)
        shot("domains")
        # Not verified, so not offered for links; the shared one is.
        go("#links")
        wait(lambda: visible("#link-form"))
        wait(lambda: len(Select(q("#l-domain")).options) == 2)
        opts = [o.text for o in Select(q("#l-domain")).options]
        self.assertEqual(opts, ["127.0.0.1", "go.shared.test"])
        fill("#l-target_url", "https://example.com/shared")
        fill("#l-slug", "spring")           # taken on the default one only
        Select(q("#l-domain")).select_by_visible_text("go.shared.test")
        click("#link-form button[type=submit]")
        wait(lambda: visible("#link-created"))
        self.assertEqual(q("#link-created-url").get_attribute("value"),
                         "http://go.shared.test/spring")
        # Removed again from the Domains section.
        go("#domains")
        wait(lambda: visible('article.domain[data-host="my-brand.test"]'))
        click('article.domain[data-host="my-brand.test"] button.danger')
        drv.switch_to.alert.accept()
        wait(lambda: not qa('article.domain[data-host="my-brand.test"]'))

    def test_10_tags_notes_archive(self):
        go("#links")
        wait(lambda: visible("#link-form"))
        fill("#l-target_url", "https://example.com/tagged")
        fill("#l-slug", "tagged")
        for name in ("Spring", "Print", "spring"):   # the same tag twice
            fill("#l-tags-input", name)
            q("#l-tags-input").send_keys(Keys.ENTER)
        wait(lambda: len(qa("#l-tags .chip")) == 2)
        # A chip's x takes it off again.
        click("#l-tags .chip-x")
        wait(lambda: [c.text.rstrip("×").strip() for c in
                      qa("#l-tags .chip")] == ["Print"])
        fill("#l-tags-input", "Spring")
        q("#l-tags-input").send_keys(Keys.ENTER)
        fill("#l-notes", "For the spring flyer.\nPrinted 500.")
        click("#link-form button[type=submit]")
        wait(lambda: visible("#link-created"))
        lid, notes = inst.sql("SELECT id, notes FROM links WHERE slug = "
                              "'tagged'")[0]
        self.assertEqual(notes, "For the spring flyer.\nPrinted 500.")
        row = wait(lambda: visible('#links-table tr[data-id="%d"]' % lid))
        self.assertEqual(sorted(b.text for b in row.find_elements(
            By.CSS_SELECTOR, "button.chip.tag")), ["Print", "Spring"])
        shot("links-tags")
        # A click on a tag filters the list by it.
        n_all = len(qa("#links-table tbody tr"))
        row.find_element(By.XPATH, ".//button[.='Spring']").click()
        wait(lambda: visible("#links-tag-filter") and
             len(qa("#links-table tbody tr")) == 1)
        click("#links-tag-filter .chip-x")
        wait(lambda: len(qa("#links-table tbody tr")) == n_all)
        # Archived: gone from the list, there under "Archived", back.
        click('#links-table tr[data-id="%d"] button[data-archive]' % lid)
        wait(lambda: not qa('#links-table tr[data-id="%d"]' % lid))
        self.assertEqual(inst.sql("SELECT archived FROM links WHERE id = %d"
                                  % lid)[0][0], 1)
        Select(q("#links-archived")).select_by_value("only")
        wait(lambda: [r.get_attribute("data-id") for r in
                      qa("#links-table tbody tr")] == [str(lid)])
        click('#links-table tr[data-id="%d"] button[data-archive]' % lid)
        wait(lambda: not qa("#links-table tbody tr"))
        Select(q("#links-archived")).select_by_value("exclude")
        wait(lambda: qa('#links-table tr[data-id="%d"]' % lid))

    def test_10_stats(self):
        lid, slug = self.state["plain"]
        go("#stats/%d" % lid)
        wait(lambda: q("#stats-totals").text)
        # Visit the plain link as a person would (a browser's User-Agent:
        # bots are not counted), twice, once through a channel suffix.
        for path, ref in (("/" + slug, "https://news.example/post"),
                          ("/" + slug + "/ig", "")):
            r = inst.request("GET", path, headers={
                "User-Agent": CHROME_UA, "Referer": ref})
            self.assertEqual(r.status, 302, r)
            self.assertEqual(r.header("location"),
                             "https://example.com/simple")
        go("#stats/%d" % lid)
        wait(lambda: visible("#view-stats") and slug in q("#stats-title").text)

        def counted():
            # Clicks reach the database within a tick of the worker: ask
            # again (the period select reloads) until both are there.
            Select(q("#stats-range")).select_by_value("7")
            Select(q("#stats-range")).select_by_value("30")
            return q("#stats-totals .total-value").text == "2"
        wait(counted, timeout=15)
        # The chart: one point per day of the 30 (and today's), today's
        # is 2.
        wait(lambda: len(qa("#stats-series table tbody tr")) == 31)
        pts = drv.execute_script(
            "return [...document.querySelectorAll('#stats-series table "
            "tbody td')].map(td => td.textContent)")
        self.assertEqual(pts[-1], "2")
        self.assertEqual(sum(int(p) for p in pts), 2)
        self.assertTrue(qa("#stats-series svg polyline"))
        text = q("#stats-breakdowns").text
        self.assertIn("news.example", text)
        self.assertIn("ig", text)
        self.assertIn("desktop", text)

        # A conversion, reported as the Conversions section says: the
        # shop's thank-you page (on its own origin) holds the pixel tag;
        # then that page runs the POST snippet.  Chromium sends a desktop
        # Chrome's User-Agent from 127.0.0.1: the visitor who clicked
        # above (HeadlessChrome would be a bot).
        inst.ctl("account", "plan", "browser@example.com", "pro")
        go("#conversions/%d" % lid)
        wait(lambda: visible("#view-conversions") and
             ("slug=" + slug) in q("#conv-pixel").get_attribute("value"))
        fill("#conv-value", "0.1")
        fill("#conv-currency", "usd")
        fill("#conv-suffix", "")
        wait(lambda: "currency=USD" in q("#conv-pixel").get_attribute("value"))
        pixel = q("#conv-pixel").get_attribute("value")
        snippet = q("#conv-post").get_attribute("value")
        self.assertFalse(visible("#conv-plan"))
        shop = Shop("<!doctype html><title>Thank you</title>"
                    "<p>Thank you for your order.</p>" + pixel)
        ua = drv.execute_script("return navigator.userAgent")
        drv.execute_cdp_cmd("Network.setUserAgentOverride",
                            {"userAgent": CHROME_UA})
        try:
            drv.get(shop.url)
            wait(lambda: inst.sql("SELECT count(*) FROM conversions")[0][0]
                 == 1)
            self.assertEqual(drv.execute_script(
                "return document.images[0].naturalWidth"), 1)
            # The snippet, run by the shop's page: CORS (a preflight, then
            # Access-Control-Allow-Origin) lets it read the answer, and the
            # same visitor within 10 minutes is a duplicate.
            js = snippet[len("<script>\n"):-len("\n</script>")]
            res = drv.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const f = window.fetch;
                window.fetch = (...a) => f(...a).then((r) => r.json()
                  .then((j) => done({status: r.status, body: j})),
                  (e) => done({error: String(e)}));
            """ + js)
            self.assertEqual(res, {"status": 200, "body": {
                "ok": True, "counted": False, "reason": "duplicate"}})
        finally:
            drv.execute_cdp_cmd("Network.setUserAgentOverride",
                                {"userAgent": ua})
            shop.stop()
        self.assertEqual(inst.sql("SELECT suffix, currency, value FROM "
                                  "conversions"), [("ig", "USD", 100000)])
        drv.get(url("/dashboard/"))
        wait(lambda: q("body").get_attribute("data-ready") == "1")
        go("#stats/%d" % lid)
        wait(lambda: visible("#view-stats") and
             slug in q("#stats-title").text and
             len(qa("#stats-breakdowns .conv-card")) == 3)
        totals = [e.text for e in qa("#stats-totals .total-value")]
        # Clicks, visitors (both clicks were the same person's), then
        # conversions, revenue and rate.
        self.assertEqual(totals, ["2", "1", "1", "$0.10", "50%"])
        rows = drv.execute_script("""
            return [...document.querySelectorAll('.conv-card')].map((c) =>
              [c.dataset.dim, [...c.querySelectorAll('tbody tr')].map(
                (tr) => [...tr.children].map((x) => x.textContent))]);""")
        self.assertEqual(rows, [
            ["suffix", [["ig", "1", "$0.10"]]],
            ["currency", [["USD", "1", "$0.10"]]],
            ["variant", [["(none)", "1", "$0.10", "2", "50%"]]]])
        shot("stats")

    def test_10c_overview(self):
        """The Overview: the account's figures, its top links, a tag's
        (GET /dashboard/api/stats, lz-links(8) "Statistics across
        links")."""
        lid, slug = self.state["plain"]
        fresh_timings()
        go("#overview")
        wait(lambda: visible("#view-overview") and
             q("#ov-totals .total-value").text and
             qa('#ov-top-table tr[data-id="%d"]' % lid))

        def answer():
            # The page's own last request (its fetch()), asked again with
            # an XMLHttpRequest: a fetch of its own would be the newest
            # entry the next time, started after a request of the page
            # still in flight, and be found instead of the page's.
            return drv.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "const e = performance.getEntriesByType('resource').filter("
                "  (e) => e.initiatorType === 'fetch' &&"
                "  /\\/dashboard\\/api\\/stats\\?/.test(e.name)).pop();"
                "const x = new XMLHttpRequest(); x.open('GET', e.name);"
                "x.onload = () => done(JSON.parse(x.responseText));"
                "x.send();")
        j = answer()

        def shown():
            # Read again while the page renders a later answer (the same
            # figures) over the one first seen: an element replaced under
            # the read is read anew (wait).
            return q("#ov-totals .total-value").text.replace(",", "") == \
                str(j["totals"]["clicks"]) and \
                [int(e.get_attribute("data-id")) for e in
                 qa("#ov-top-table tbody tr")] == \
                [x["id"] for x in j["top_links"]] and \
                "/" + slug in q("#ov-top").text
        wait(shown)
        # A tag of the account (on the plain link): its figures alone.
        status = drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/dashboard/api/session').then((r) => r.json()).then("
            "  (s) => fetch('/dashboard/api/links/' + arguments[0], {"
            "    method: 'PATCH', headers: {'Content-Type': "
            "    'application/json', 'X-CSRF-Token': s.csrf_token},"
            "    body: JSON.stringify({tags: ['Overview']})})).then("
            "  (r) => done(r.status));", lid)
        self.assertEqual(status, 200)
        # The tag's figures as a tag's chip opens them (#overview/TAG):
        # the page chooses the tag itself.
        go("#links")
        wait(lambda: visible("#view-links"))
        go("#overview/Overview")
        wait(lambda: "Overview" in [o.get_attribute("value") for o in
                                    qa("#ov-tag option")] and
             q("#ov-tag").get_attribute("value") == "Overview")
        tags = [o.get_attribute("value") for o in qa("#ov-tag option")]
        self.assertEqual(tags[0], "")
        self.assertGreater(len(tags), 1, "the tags of the earlier test")

        def tag_shown():
            jt = answer()
            return jt.get("tag") == "Overview" and \
                q("#ov-totals .total-value").text.replace(",", "") == \
                str(jt["totals"]["clicks"]) and \
                len(qa("#ov-top-table tbody tr")) == len(jt["top_links"])
        wait(tag_shown)
        # Every tag again; the top links lead to each link's statistics.
        drv.execute_script(
            "const s = document.querySelector('#ov-tag'); s.value = '';"
            "s.dispatchEvent(new Event('change'));")

        def all_shown():
            jt = answer()
            return jt.get("tag") is None and \
                qa('#ov-top a[href="#stats/%d"]' % lid)
        wait(all_shown)
        shot("overview")

    def test_10d_bulk_actions(self):
        """Links ticked in the list: a tag put on them all, then archived
        together (PATCH /dashboard/api/links/bulk)."""
        ids = drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/dashboard/api/session').then((r) => r.json()).then("
            "  (s) => Promise.all([1, 2].map((i) => fetch("
            "    '/dashboard/api/links', {method: 'POST', headers: {"
            "    'Content-Type': 'application/json', 'X-CSRF-Token':"
            "    s.csrf_token}, body: JSON.stringify({target_url:"
            "    'https://example.com/bulk/' + i})}).then((r) => r.json())"
            "    .then((j) => j.id)))).then(done);")
        go("#api")
        go("#links")
        wait(lambda: visible("#view-links") and all(
            qa('#links-table tr[data-id="%d"]' % i) for i in ids))
        self.assertFalse(visible("#links-bulk"))
        for i in ids:
            click('#links-table tr[data-id="%d"] .link-select' % i)
        wait(lambda: visible("#links-bulk") and
             "2" in q("#links-bulk-count").text)
        fill("#links-bulk-tag", "Bulky")
        click("#links-bulk-tag-add")
        wait(lambda: all("Bulky" in q('#links-table tr[data-id="%d"]' %
                                      i).text for i in ids))
        for i in ids:
            click('#links-table tr[data-id="%d"] .link-select' % i)
        click("#links-bulk-archive")
        wait(lambda: not any(qa('#links-table tr[data-id="%d"]' % i)
                             for i in ids))
        rows = inst.sql("SELECT archived FROM links WHERE id IN (%d, %d)" %
                        tuple(ids))
        self.assertEqual(sorted(a for (a,) in rows), [1, 1])

    def test_10e_import(self):
        """A CSV file checked, then imported, from the Import page."""
        path = os.path.join(profile, "links.csv")
        with open(path, "w") as f:
            f.write("Long URL,Short code,Title\n"
                    "https://example.com/imp1,imp1,Imported\n"
                    "https://example.com/imp2,imp 2,Renamed\n")
        go("#import")
        wait(lambda: visible("#view-import"))
        q("#imp-file").send_keys(path)
        click("#imp-form button[type=submit]")
        wait(lambda: visible("#imp-preview") and
             "imp1" in q("#imp-rows").text and
             "line 3" in q("#imp-skipped").text)
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE slug = "
                                  "'imp1'"), [(0,)])
        Select(q("#imp-conflict")).select_by_value("rename")
        click("#imp-form button[type=submit]")
        wait(lambda: visible("#imp-go") and
             not q("#imp-skipped").text)
        click("#imp-go")
        wait(lambda: inst.sql("SELECT count(*) FROM links WHERE slug IN "
                              "('imp1', 'imp-2')") == [(2,)])
        shot("import")
        # More rows than a request takes: sent in pieces of whole records
        # (notes with a line break in quotes among them), the page
        # showing how far it got, a bad row's line counted in the file.
        big = os.path.join(profile, "big.csv")
        with open(big, "w") as f:
            f.write("url,slug,title,notes\n")
            for i in range(2500):
                if i == 5:
                    f.write('https://example.com/b/%d,big%d,Big,"two\n'
                            'lines"\n' % (i, i))
                elif i == 2100:
                    f.write("not a url,big%d,Bad,\n" % i)
                else:
                    f.write("https://example.com/b/%d,big%d,Big,\n" %
                            (i, i))
        go("#links")
        go("#import")
        wait(lambda: visible("#view-import") and
             not visible("#imp-preview"))
        q("#imp-file").clear()
        q("#imp-file").send_keys(big)
        click("#imp-form button[type=submit]")
        wait(lambda: visible("#imp-preview") and "2500 of 2500 rows" in
             q("#imp-progress-text").text and "2499 links would be" in
             q("#imp-summary").text, timeout=30)
        self.assertEqual([e.text.split(":")[0] for e in
                          qa("#imp-skipped li")], ["line 2103"])
        click("#imp-go")
        wait(lambda: "2499 links imported" in q("#imp-summary").text,
             timeout=30)
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE slug "
                                  "LIKE 'big%'"), [(2499,)])
        self.assertEqual(inst.sql("SELECT notes FROM links WHERE slug = "
                                  "'big5'"), [("two\nlines",)])

    # On PostgreSQL the rebuild of a million clicks writes each of their
    # 1.5 million visitor-days with a statement of its own (rollup.c):
    # minutes, where SQLite takes seconds.  Not run there until rollup
    # writes go in batches (issue 18's remaining work).
    @unittest.skipIf(lzenv.PG, "a million-click rebuild: SQLite only")
    def test_10b_stats_of_a_million_clicks(self):
        # A million clicks over 30 days on the first link, written as raw
        # rows and rolled up by lzctl stats rebuild, as after an import.
        lid = self.state["link_id"]
        now = int(time.time() * 1000)
        t0 = now - 30 * 86400000
        c = sqlite3.connect(inst.path("data", "links.db"), timeout=30)
        c.execute(MILLION, {"link": lid, "t0": t0, "step": (now - t0) //
                            1000000})
        c.commit()
        c.close()
        out = inst.ctl("stats", "rebuild", "--link", str(lid))[1]
        self.assertIn("1000000 clicks", out)
        # The statistics open at once: the answer reads rollups.
        slug = inst.sql("SELECT slug FROM links WHERE id = %d" % lid)[0][0]
        go("#links")
        wait(lambda: visible("#view-links"))
        fresh_timings()
        t = time.monotonic()
        go("#stats/%d" % lid)

        def total():
            return int("0" + q("#stats-totals .total-value").text.replace(
                ",", ""))
        wait(lambda: visible("#view-stats") and
             slug in q("#stats-title").text and total() > 900000 and
             len(qa("#stats-series table tbody tr")) == 31, timeout=10)
        opened = time.monotonic() - t
        took, answer = drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const e = performance.getEntriesByType('resource').filter("
            "  (e) => /\\/stats\\?/.test(e.name)).pop();"
            "fetch(e.name).then((r) => r.json()).then((j) => done("
            "  [e.duration, j]));")
        sys.stderr.write("FIGURE dashboard: statistics of a link of a "
                         "million clicks opened in %.0f ms (the answer: "
                         "%.0f ms)\n" % (opened * 1000, took))
        self.assertLess(took, 1000)
        frm = answer["from"]
        self.assertEqual(total(), inst.sql(
            "SELECT count(*) FROM clicks WHERE link_id = %d AND bot = 0 AND "
            "at >= %d" % (lid, calendar.timegm(time.strptime(
                frm, "%Y-%m-%dT%H:%M:%SZ")) * 1000))[0][0])
        self.assertIn("JP", q("#stats-breakdowns").text)
        shot("stats-million")

    def test_10_x_edit_qr_search_export(self):
        """Edit a link with the create form, download its QR code and its
        clicks, search the list (DESIGN 3.9)."""
        lid, slug = self.state["plain"]
        spring = self.state["link_id"]
        downloads = os.path.join(profile, "downloads")
        os.makedirs(downloads, exist_ok=True)
        drv.execute_cdp_cmd("Browser.setDownloadBehavior", {
            "behavior": "allow", "downloadPath": downloads})
        go("#links")
        wait(lambda: qa('#links-table tr[data-id="%d"]' % lid))
        nrows = len(qa("#links-table tbody tr"))
        # Edit: the form is filled in, the slug cannot change.
        click('#links-table tr[data-id="%d"] [data-edit]' % lid)
        wait(lambda: q("#link-form-title").text == "Edit " + slug)
        self.assertEqual(q("#l-target_url").get_attribute("value"),
                         "https://example.com/simple")
        self.assertEqual(q("#l-slug").get_attribute("value"), slug)
        self.assertFalse(q("#l-slug").is_enabled())
        self.assertTrue(visible("#link-cancel"))
        for d in qa("#link-form details"):
            if not d.get_attribute("open"):
                d.find_element(By.TAG_NAME, "summary").click()
        fill("#l-title", "Plain, edited")
        fill("#l-max_clicks", "900")
        shot("links-edit")
        click("#link-submit")
        wait(lambda: "Saved " + slug in q("#status").text)
        self.assertEqual(inst.sql("SELECT title, max_clicks, slug FROM links "
                                  "WHERE id = %d" % lid)[0],
                         ("Plain, edited", 900, slug))
        self.assertEqual(q("#link-form-title").text, "Create a link")
        self.assertTrue(q("#l-slug").is_enabled())
        # The A/B link: its rows filled in; only what changed is sent, so
        # its expiry keeps its second and the password can go.
        before = inst.sql("SELECT expires_at, password_hash IS NOT NULL "
                          "FROM links WHERE id = %d" % spring)[0]
        self.assertEqual(before[1], 1)
        click('#links-table tr[data-id="%d"] [data-edit]' % spring)
        wait(lambda: q("#link-form-title").text == "Edit spring")
        self.assertEqual(len(qa("#ab-rows .row")), 2)
        self.assertEqual(q("#l-variants-1-weight").get_attribute("value"),
                         "70")
        for d in qa("#link-form details"):
            if not d.get_attribute("open"):
                d.find_element(By.TAG_NAME, "summary").click()
        self.assertTrue(visible("#l-password-keep"))
        fill("#l-variants-1-weight", "60")
        click("#l-password-clear")
        click("#link-submit")
        wait(lambda: "Saved spring" in q("#status").text)
        variants, exp, pw = inst.sql("SELECT variants, expires_at, "
                                     "password_hash FROM links WHERE id = %d"
                                     % spring)[0]
        self.assertIn('"weight":60', variants)
        self.assertEqual(exp, before[0])
        self.assertIsNone(pw)
        # The QR code: shown, and downloaded as a PNG that decodes to the
        # short URL.
        click('#links-table tr[data-id="%d"] [data-qr]' % lid)
        wait(lambda: visible("#qr-dialog"))
        wait(lambda: drv.execute_script(
            "return document.querySelector('#qr-img').naturalWidth") > 0)
        self.assertEqual(q("#qr-url").text, url("/" + slug))
        shot("links-qr")
        click("#qr-png")
        png = os.path.join(downloads, slug + ".png")
        wait(lambda: os.path.exists(png) and os.path.getsize(png) > 0)
        p = subprocess.run(["zbarimg", "--quiet", "--raw", png],
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.stdout.strip(), url("/" + slug), p.stderr)
        click("#qr-close")
        wait(lambda: not visible("#qr-dialog"))
        # The clicks, downloaded as CSV.
        click('#links-table tr[data-id="%d"] [data-export]' % lid)
        csvfile = os.path.join(downloads, "lz-clicks-%s.csv" % slug)
        wait(lambda: os.path.exists(csvfile) and
             os.path.getsize(csvfile) > 0)
        with open(csvfile, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0][:3], ["time", "suffix", "country"])
        self.assertEqual(sorted(r[1] for r in rows[1:]), ["", "ig"])
        # Search and filter the list.
        fill("#links-q", "PLAIN, ED")
        click("#links-search button[type=submit]")
        wait(lambda: len(qa("#links-table tbody tr")) == 1)
        self.assertIn("Plain, edited", q("#links-table tbody tr").text)
        Select(q("#links-status")).select_by_value("capped")
        click("#links-search button[type=submit]")
        wait(lambda: visible("#links-no-match"))
        self.assertEqual(qa("#links-table tbody tr"), [])
        self.assertFalse(visible("#links-empty"))
        shot("links-search")
        Select(q("#links-status")).select_by_value("")
        fill("#links-q", "")
        click("#links-search button[type=submit]")
        wait(lambda: len(qa("#links-table tbody tr")) == nrows)

    def test_11_sign_out(self):
        go("#links")
        wait(lambda: visible("#signout"))
        click("#signout")
        wait(lambda: visible("#signin-form"))
        self.assertFalse(visible("#nav"))
        # The session is gone on the server as well.
        self.assertEqual(inst.sql("SELECT count(*) FROM sessions")[0][0], 0)
        fill("#signin-email", "browser@example.com")
        fill("#signin-password", "wrong password")
        click("#signin-form button[type=submit]")
        wait(lambda: q("#signin-form [data-error]").text != "")
        self.assertIn("wrong", q("#signin-form [data-error]").text)
        fill("#signin-password", "a good long password")
        click("#signin-form button[type=submit]")
        wait(lambda: visible("#view-links"))
        self.assertTrue(no_xss())

    def test_12_members_and_a_viewer(self):
        """An owner invites a viewer from the Members page; the viewer
        joins by the link, and finds no write that works: the server
        refuses each (a button the page shows is not the check)."""
        go("#members")
        wait(lambda: visible("#view-members") and
             "browser@example.com" in q("#members-table").text)
        fill("#invite-email", "looker@example.com")
        Select(q("#invite-role")).select_by_value("viewer")
        click("#invite-form button[type=submit]")
        wait(lambda: visible("#invite-new") and
             "#invite/" in q("#invite-url").get_attribute("value"))
        url = q("#invite-url").get_attribute("value")
        self.assertIn("looker@example.com", q("#invites-pending").text)
        # Signed out, the invitation's page sets the password and joins.
        click("#signout")
        wait(lambda: visible("#signin-form"))
        drv.get(url)
        wait(lambda: visible("#view-invite") and
             visible("#accept-password"))
        fill("#accept-password", "a viewer's password")
        click("#accept-form button[type=submit]")
        wait(lambda: visible("#view-links") and
             qa("#links-table tbody tr"))
        links_before = inst.sql("SELECT count(*) FROM links")[0][0]
        # A new link: refused.
        fill("#l-target_url", "https://example.com/viewer")
        click("#link-form button[type=submit]")
        wait(lambda: "viewer" in q("#link-form [data-error]").text)
        # Deleting one: refused, the row stays.
        row = qa("#links-table tbody tr")[0]
        lid = int(row.get_attribute("data-id"))
        drv.execute_script("window.confirm = () => true;")
        row.find_element("css selector", "button.danger").click()
        wait(lambda: "viewer" in q("#status").text)
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE id = %d "
                                  "AND deleted_at IS NULL" % lid), [(1,)])
        # Keys and members: not the viewer's to read.
        go("#api")
        wait(lambda: "viewer" in q("#status").text)
        go("#members")
        wait(lambda: "viewer" in q("#status").text)
        self.assertEqual(inst.sql("SELECT count(*) FROM links")[0][0],
                         links_before)
        # Back as the owner for the tests after.
        click("#signout")
        wait(lambda: visible("#signin-form"))
        fill("#signin-email", "browser@example.com")
        fill("#signin-password", "a good long password")
        click("#signin-form button[type=submit]")
        wait(lambda: visible("#nav"))
        go("#links")
        wait(lambda: visible("#view-links"))

    def test_99_contrast(self):
        # Every section shot above had its text checked.
        self.assertEqual(CONTRAST_FAILS, [])
        # And once in the dark scheme.
        drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            go("#links")
            wait(lambda: visible("#view-links"))
            shot("links-dark")
            go("#account")
            wait(lambda: "@" in q("#account-info").text)
            shot("account-dark")
        finally:
            drv.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": []})
        self.assertEqual(CONTRAST_FAILS, [])


# A tag of a pixel container, as the page runs it: it keeps the page from
# leaving, then tries what a container could to reach the dashboard.
PROBE_JS = """
if (location.pathname === "/pxprobe") {
  const later = window.setTimeout.bind(window);
  window.setTimeout = () => 0;
  const p = window.__probe = { origin: window.origin };
  try { p.cookie = "read: " + document.cookie; }
  catch (e) { p.cookie = "refused: " + e.name; }
  fetch("/dashboard/api/session", { credentials: "include" })
    .then((r) => r.text()).then((t) => { p.fetch = "read: " + t; },
      (e) => { p.fetch = "refused: " + e.name; });
  document.addEventListener("click", () => {
    const w = window.open("/dashboard/", "lzprobe");
    if (!w) { p.popup = "none"; return; }
    later(() => {
      try { p.popup = "read: " + w.document.documentElement.outerHTML; }
      catch (e) { p.popup = "refused: " + e.name; }
    }, 3000);
  });
}
"""


def close_other_windows(keep):
    for h in drv.window_handles:
        if h != keep:
            drv.switch_to.window(h)
            drv.close()
    drv.switch_to.window(keep)


def set_ua(ua):
    drv.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": ua})


class TenantPages(unittest.TestCase):
    """Another account's short links, opened by the browser that is
    signed in to the dashboard (Dashboard left it so)."""

    @classmethod
    def setUpClass(cls):
        cls.site = Shop("<!doctype html><title>Landing</title><p>landed</p>")
        cls.port = cls.site.srv.server_port
        cls.key = inst.key(inst.account("tenant@example.com", plan="pro"))
        cls.ua = drv.execute_script("return navigator.userAgent")
        set_ua(CHROME_UA)

    @classmethod
    def tearDownClass(cls):
        set_ua(cls.ua)
        cls.site.stop()

    def link(self, slug, **fields):
        """A link of the tenant to the landing site; its target."""
        body = {"slug": slug, "target_url": "http://landing.example:%d/%s"
                % (self.port, slug)}
        body.update(fields)
        r = inst.api("POST", "/api/v1/links", self.key, body)
        self.assertEqual(r.status, 201, r)
        return body["target_url"]

    def landed(self, target):
        wait(lambda: drv.current_url == target, timeout=10)
        self.assertIn("landed", q("body").text)

    def test_1_pixel_tag_reads_nothing_of_the_dashboard(self):
        # The browser is signed in: the dashboard's session answers.
        drv.get(url("/dashboard/"))
        wait(lambda: q("body").get_attribute("data-ready") == "1")
        self.assertTrue(drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/dashboard/api/session').then((r) => r.json())"
            ".then((j) => done(j.signed_in))"))
        main = drv.current_window_handle
        self.link("pxprobe", pixel_gtm="GTM-ABCD12")
        sid = drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                  {"source": PROBE_JS})["identifier"]
        try:
            drv.get(url("/pxprobe"))
            wait(lambda: drv.execute_script(
                "return !!window.__probe && window.__probe.fetch "
                "!== undefined"))
            ActionChains(drv).move_to_element(q("h1")).click().perform()
            wait(lambda: drv.execute_script(
                "return window.__probe.popup !== undefined"), timeout=15)
            probe = drv.execute_script("return window.__probe")
        finally:
            drv.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                {"identifier": sid})
            close_other_windows(main)
        sys.stderr.write("pixel page probe: %r\n" % {
            k: v[:80] for k, v in probe.items()})
        self.assertEqual(probe["origin"], "null")
        self.assertEqual(probe["cookie"], "refused: SecurityError")
        self.assertTrue(probe["fetch"].startswith("refused"), probe)
        self.assertFalse(probe["popup"].startswith("read"), probe)
        for v in probe.values():
            self.assertNotIn("csrf_token", v)

    def test_2_pages_do_their_job(self):
        # The pixel page sends the visitor on.
        target = self.link("pxgo", pixel_fb="1234567890")
        drv.get(url("/pxgo"))
        self.landed(target)
        # The password form posts (from an opaque origin: Origin: null)
        # and its 303 is followed.
        target = self.link("pwgo", password="open sesame")
        drv.get(url("/pwgo"))
        self.assertEqual(drv.execute_script("return window.origin"), "null")
        self.assertEqual(drv.execute_script(
            "return document.activeElement.id"), "lz-pw")
        shot("page-password")
        fill("#lz-pw", "open sesame")
        click("form button[type=submit]")
        self.landed(target)
        # The social preview's refresh.
        target = self.link("oggo", og={"title": "Preview"})
        set_ua(FACEBOOK_CRAWLER)
        try:
            drv.get(url("/oggo"))
            self.landed(target)
        finally:
            set_ua(CHROME_UA)
        # The in-app escape: its copy button, and staying in the app.
        target = self.link("escgo", escape_inapp=True)
        set_ua(INSTAGRAM_IOS)
        try:
            drv.get(url("/escgo"))
            wait(lambda: visible("#lz-copy"))
            shot("page-escape")
            click("#lz-copy")
            wait(lambda: q("#lz-copy").text == "Copied")
            drv.find_element(By.PARTIAL_LINK_TEXT, "Continue in").click()
            self.landed(target)
        finally:
            set_ua(CHROME_UA)
        self.assertEqual(CONTRAST_FAILS, [])

    def test_3_dashboard_keeps_openers_out(self):
        """A page of another origin that opens the dashboard keeps no
        handle on it (COOP same-origin): its reference reads closed."""
        main = drv.current_window_handle
        drv.get(self.site.url)
        drv.execute_script(
            "document.addEventListener('click', () => {"
            " window.__w = window.open(arguments[0], 'lzdash'); });",
            url("/dashboard/"))
        try:
            ActionChains(drv).move_to_element(q("p")).click().perform()
            wait(lambda: len(drv.window_handles) == 2)
            pop = [h for h in drv.window_handles if h != main][0]
            drv.switch_to.window(pop)
            wait(lambda: q("body").get_attribute("data-ready") == "1")
            self.assertEqual(drv.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch('/dashboard/').then((r) => done(r.headers.get("
                "'cross-origin-opener-policy')))"), "same-origin")
            self.assertIsNone(drv.execute_script("return window.opener"))
            drv.switch_to.window(main)
            self.assertTrue(drv.execute_script("return window.__w.closed"))
        finally:
            close_other_windows(main)


if __name__ == "__main__":
    lzenv.main()
