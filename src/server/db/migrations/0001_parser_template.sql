ALTER TABLE "parsers" ADD COLUMN "sample_message_id" text;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "template" jsonb;