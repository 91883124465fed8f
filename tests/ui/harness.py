"""The browser helpers of the end-to-end tests (they live in companion.app.browser, shared with
the `ui` benchmark), re-exported for the tests."""

from companion.app.browser import (  # noqa: F401
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    LAPTOP,
    PHONE,
    AppServer,
    BrowserStuck,
    box_in_view,
    click_id,
    drive,
    enable_semantics,
    evaluate,
    free_port,
    ident,
    launch_browser,
    open_page,
    pictured_on_failure,
    require_chromium,
    screen_text,
    serving,
    set_text_scale,
    shot,
    wait_text,
)
