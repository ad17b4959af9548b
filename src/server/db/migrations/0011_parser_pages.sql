DROP INDEX "parsed_emails_open_writes_idx";--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "training_samples" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "parsed_emails_open_writes_idx" ON "parsed_emails" USING btree ("user_id") WHERE "parsed_emails"."sheet_state" in ('queued', 'writing', 'updating');