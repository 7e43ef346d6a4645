-- E-mails rendered from notification templates (issue 19) carry an HTML part beside the text.
ALTER TABLE outbox_emails ADD COLUMN html text;
