ALTER TABLE "parsed_emails" ADD COLUMN "sheet_key_at" integer;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "sheet_columns" jsonb;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "advanced_filters" jsonb;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "custom_fields" jsonb DEFAULT '[]'::jsonb NOT NULL;