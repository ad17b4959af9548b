ALTER TABLE "parsed_emails" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "training_samples" jsonb DEFAULT '[]'::jsonb NOT NULL;