ALTER TABLE "parsed_emails" ADD COLUMN "sheet_rows" jsonb;--> statement-breakpoint
ALTER TABLE "parsed_emails" ADD COLUMN "sheet_key" text DEFAULT 'message' NOT NULL;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "row_mode" text DEFAULT 'per_email' NOT NULL;--> statement-breakpoint
-- Rows queued before this migration keep their cells: a one-row list keyed by Message ID.
UPDATE "parsed_emails" SET "sheet_rows" = jsonb_build_array("sheet_row") WHERE "sheet_row" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "parsed_emails" DROP COLUMN "sheet_row";
