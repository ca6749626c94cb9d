#!/usr/bin/python3
"""A browser of one window and nothing else around the page, on WebKitGTK, for
WebKitWebDriver (``webkitgtk:browserOptions``' binary): GTK and WebKit2 through PyGObject,
run by the system's Python (its ``python3-gi``, ``gir1.2-webkit2-4.1``, ``gir1.2-gtk-3.0``).

MiniBrowser, WebKitGTK's own, keeps a toolbar that makes its window no narrower than 447 px;
here the window holds only the page, so that it is a phone's 390 x 844.

What the page writes to its console (and its uncaught errors) goes to the standard output,
one line each, for the tests to read.
"""

import shutil
import sys
import tempfile

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

# The tests look for this line: the software GL of a virtual display can crash the page's
# process now and then.
ENDED = "zar-webkit: the page's process ended:"


def page_process_ended(_view, reason):
    print(ENDED, reason.value_nick, flush=True)


def main(argv):
    # A fresh store of its own (cookies, storage, caches, service workers): a new phone.
    store = tempfile.mkdtemp(prefix="zar-webkit-")
    data = WebKit2.WebsiteDataManager(base_data_directory=store, base_cache_directory=store)
    context = WebKit2.WebContext(website_data_manager=data)
    context.set_automation_allowed(True)
    windows = []

    def create_web_view(session):
        view = WebKit2.WebView(web_context=context, is_controlled_by_automation=True)
        settings = view.get_settings()
        settings.set_enable_write_console_messages_to_stdout(True)
        view.connect("web-process-terminated", page_process_ended)
        window = Gtk.Window()
        window.set_default_size(390, 844)
        window.add(view)
        window.connect("destroy", lambda _: windows.remove(window))
        window.show_all()
        windows.append(window)
        return view

    def automation_started(_context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name("zar-webkit")
        info.set_version(1, 0, 0)
        session.set_application_info(info)
        session.connect("create-web-view", create_web_view)

    context.connect("automation-started", automation_started)
    try:
        Gtk.main()
    finally:
        shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv)
