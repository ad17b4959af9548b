CREATE TABLE "spreadsheet_leases" (
	"spreadsheet_id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connected_accounts" ADD COLUMN "last_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "source" text DEFAULT 'sync' NOT NULL;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "sheet_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "spreadsheet_id" text;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "sheet_row" jsonb;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "sheet_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "parsed_emails_user_status_idx" ON "parsed_emails" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "parsed_emails_sheet_queue_idx" ON "parsed_emails" USING btree ("spreadsheet_id","sheet_state");