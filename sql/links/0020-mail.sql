-- lz-links schema, version 20: mail waiting to be sent (lz-hooks(8)
-- "Mail").  A pool's worker may not run programs, so the one that makes
-- an invitation queues its mail here in the same transaction, when
-- mail_command is set in lz.conf, and lz-hooks sends it by running that
-- command.
--
-- The text holds the invitation's one-time URL, whose token the
-- invitations table keeps only hashed: it is sealed (body_box: nonce and
-- libsodium secretbox, under a key derived from the key file), and
-- dropped once the mail is sent or given up.  Recipient and subject name
-- no secret.
--   state        queued, sent or failed (given up)
--   next_at      when it is due, or the end of a run's lease (as
--                webhook_deliveries'); NULL once finished
--   expires_at   the invitation's end: a mail still queued then is
--                given up unsent
--   finished_at  sent or given up; lz-hooks deletes the row some days
--                later
CREATE TABLE mail_outbox (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	invitation_id	INTEGER REFERENCES invitations(id),
	rcpt		TEXT NOT NULL,
	subject		TEXT NOT NULL,
	body_box	BLOB,
	state		TEXT NOT NULL DEFAULT 'queued'
			CHECK (state IN ('queued', 'sent', 'failed')),
	attempts	INTEGER NOT NULL DEFAULT 0,
	created_at	INTEGER NOT NULL,
	expires_at	INTEGER NOT NULL,
	next_at		INTEGER,
	lease		TEXT,
	last_error	TEXT,
	finished_at	INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox(next_at)
	WHERE next_at IS NOT NULL;
CREATE INDEX mail_outbox_finished ON mail_outbox(finished_at)
	WHERE finished_at IS NOT NULL;
