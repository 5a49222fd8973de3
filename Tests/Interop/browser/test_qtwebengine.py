#!/usr/bin/python3
"""QtWebEngine 5.15 (Debian's python3-pyqt5.qtwebengine, a Chromium 87 core) shows the demo dashboard, against a
real `rollboard serve` over TLS with permessage-deflate.

Runs under Debian's own python3 (PyQt5 comes from Debian, not from the venv) and under xvfb-run: a QWebEngineView
loads /d/demo, the self-signed certificate is accepted for 127.0.0.1 only, and the DOM is read through
runJavaScript. The checks are engine_scenario.py's; the engine's console errors (javaScriptConsoleMessage at error
level) are read too.

    xvfb-run -a /usr/bin/python3 Tests/Interop/browser/test_qtwebengine.py --binary .build/debug/rollboard
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "server"))
sys.path.insert(0, HERE)
from engine_pages import run_pages  # noqa: E402
from engine_scenario import run_scenario  # noqa: E402
from rollboard_process import RollboardProcess  # noqa: E402

# Chromium's sandbox refuses to run as root in a container; the GPU is Xvfb's, so software rendering.
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu")

from PyQt5.QtCore import QEventLoop, QTimer, QUrl, qVersion  # noqa: E402
from PyQt5.QtWidgets import QApplication  # noqa: E402
from PyQt5.QtWebEngineWidgets import QWebEnginePage, QWebEngineView  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TOKEN = "qtwebengine-producer-token-0123456789abcdef"
ADMIN = "qtwebengine-admin-token-0123456789abcdef"


class LoopbackPage(QWebEnginePage):
    """Accepts the server's self-signed certificate on 127.0.0.1 and nowhere else; keeps console errors."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.errors = []
        self.refused = []

    def certificateError(self, error):
        if error.url().host() == "127.0.0.1":
            return True
        self.refused.append(error.url().toString())
        return False

    def javaScriptConsoleMessage(self, level, message, line, source):
        if level == QWebEnginePage.ErrorMessageLevel:
            self.errors.append(f"{message} ({source}:{line})")


class QtPage:
    def __init__(self, view):
        self.view = view
        self.page = view.page()

    def spin(self, milliseconds):
        loop = QEventLoop()
        QTimer.singleShot(int(milliseconds), loop.quit)
        loop.exec_()

    def open(self, url):
        loop = QEventLoop()
        self.page.loadFinished.connect(loop.quit)
        QTimer.singleShot(30000, loop.quit)
        self.view.load(QUrl(url))
        loop.exec_()
        self.page.loadFinished.disconnect(loop.quit)

    def evaluate(self, expression):
        loop = QEventLoop()
        result = {}

        def done(value):
            result["value"] = value
            loop.quit()

        self.page.runJavaScript(f"JSON.stringify(({expression}))", done)
        QTimer.singleShot(10000, loop.quit)
        loop.exec_()
        text = result.get("value")
        return json.loads(text) if isinstance(text, str) else None

    def pause(self, seconds):
        self.spin(seconds * 1000)

    def screenshot(self, path):
        if not self.view.grab().save(path):
            raise OSError("QWidget.grab() could not be saved")

    def native_errors(self):
        return list(self.page.errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshot", default=os.path.join(REPOSITORY, "reports", "browser", "qtwebengine.png"))
    arguments = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("FAIL no DISPLAY: run this test under xvfb-run")
        return 1
    application = QApplication([sys.argv[0]])
    folder = tempfile.mkdtemp(prefix="rollboard-qt-")
    server = RollboardProcess(arguments.binary, os.path.join(folder, "data"), TOKEN,
                              config=os.path.join(REPOSITORY, "config"), environment={"ROLLBOARD_ADMIN_TOKEN": ADMIN})
    view = QWebEngineView()
    view.setPage(LoopbackPage(view))
    view.resize(1280, 800)
    view.show()
    try:
        server.start()
        page = QtPage(view)
        user_agent = view.page().profile().httpUserAgent()
        print(f"Qt {qVersion()}, {next((part for part in user_agent.split() if part.startswith('Chrome/')), user_agent)}")
        checks = run_scenario(page, server, TOKEN, "QtWebEngine", arguments.screenshot)
        run_pages(page, server, ADMIN, "QtWebEngine", checks, arguments.screenshot)
        checks.check(not view.page().refused, "QtWebEngine: no certificate refused (only 127.0.0.1 is accepted)",
                     f"refused {view.page().refused!r}")
    finally:
        server.stop()
        view.close()
        application.processEvents()
        shutil.rmtree(folder, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
