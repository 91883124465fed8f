"""The browser tab's UI: the frame (`shell`, `routes`, `locale`, `sound`), the controls
(`widgets`), the screens of the host (`screens`) and of a phone (`phone`)."""
