"""Who a device is: its network address as the connection says (`peer`), what a join link and a
device token look like (`tokens`), who may use the host's screens (`access`), and the secrets a
browser keeps (`device_storage`). Never from anything the client sends of itself."""
