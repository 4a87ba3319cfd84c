"""Debian's headless Chromium through Selenium with explicit paths (Selenium Manager never runs, nothing
is downloaded). Tests that need it are skipped only when Chromium is not installed."""
import contextlib
import os
import shutil

import pytest

CHROMIUM = next((shutil.which(b) for b in ("chromium", "chromium-browser") if shutil.which(b)), None)
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")


@contextlib.contextmanager
def chromium(width=1400, height=900):
    """A headless Chromium WebDriver (browser console logs kept)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    assert os.path.isfile(CHROMEDRIVER), "Chromium is installed but chromedriver is not (apt-get install chromium-driver)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1", "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)  # explicit path: no Selenium Manager
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def severe_logs(driver):
    """The browser console's errors (a missing favicon aside)."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
