/**
 * Said where a mail was just sent when mail is local (no SMTP_URL: nothing is sent, the admin reads
 * every mail in the back office's Outbox). Without zod, for the storefront's smallest pages.
 */
export const LOCAL_MAIL_NOTE = "In local mode, mail is in the admin's Outbox";
