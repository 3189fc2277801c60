-- lz-links schema, version 3: webhook subscriptions, the outbox of
-- deliveries and the delivery log (DESIGN 3.6, lz-hooks(8)).
-- Times are integers: milliseconds since the epoch, UTC.

-- A subscription of an account.  events is a bit mask: 1 click,
-- 2 link.created.  The signing secret is kept only encrypted: the 24-byte
-- nonce followed by the libsodium secretbox of the secret, under a key
-- derived from the key file.
CREATE TABLE webhooks (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	url		TEXT NOT NULL,
	events		INTEGER NOT NULL CHECK (events BETWEEN 1 AND 3),
	secret_box	BLOB NOT NULL,
	created_at	INTEGER NOT NULL,
	rotated_at	INTEGER,
	disabled_at	INTEGER,
	disabled_reason	TEXT
);
-- Events look up the active subscriptions of an account once per event.
CREATE INDEX webhooks_account ON webhooks(account_id)
	WHERE disabled_at IS NULL;

-- The outbox: one row per event and subscription, written in the
-- transaction of the event.  body holds the exact bytes signed and sent on
-- every attempt.  next_at is when the delivery is due; while an lz-hooks
-- run sends it, the end of that run's lease (lease names the run), so a
-- run that dies leaves it due again when the lease ends.  A finished
-- delivery (state delivered, failed or cancelled) has next_at NULL and
-- finished_at set.
CREATE TABLE webhook_deliveries (
	id		INTEGER PRIMARY KEY,
	uuid		TEXT NOT NULL UNIQUE,	-- X-Lz-Delivery
	webhook_id	INTEGER NOT NULL REFERENCES webhooks(id),
	event		TEXT NOT NULL,
	body		TEXT NOT NULL,
	state		TEXT NOT NULL DEFAULT 'pending'
			CHECK (state IN ('pending', 'delivered', 'failed',
			    'cancelled')),
	attempts	INTEGER NOT NULL DEFAULT 0,
	created_at	INTEGER NOT NULL,
	next_at		INTEGER,
	lease		TEXT,
	last_status	INTEGER,		-- HTTP status of the last try
	last_error	TEXT,
	finished_at	INTEGER,
	CHECK ((state = 'pending') = (next_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(webhook_id,
	next_at) WHERE next_at IS NOT NULL;
CREATE INDEX webhook_deliveries_log ON webhook_deliveries(webhook_id, id);
CREATE INDEX webhook_deliveries_done ON webhook_deliveries(finished_at)
	WHERE finished_at IS NOT NULL;

-- The delivery log: one row per attempt.
CREATE TABLE webhook_attempts (
	id		INTEGER PRIMARY KEY,
	delivery_id	INTEGER NOT NULL REFERENCES webhook_deliveries(id)
			ON DELETE CASCADE,
	at		INTEGER NOT NULL,
	status		INTEGER,		-- HTTP status; NULL: none
	error		TEXT,			-- why it failed, or NULL
	duration_ms	INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id);
