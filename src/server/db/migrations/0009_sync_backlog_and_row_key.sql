ALTER TABLE "connected_accounts" ADD COLUMN "sync_backlog" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "parsers" ADD COLUMN "sheet_key" text DEFAULT 'row_key' NOT NULL;--> statement-breakpoint
-- Parsers made before decision 014 keep the key their sheets already have (Message ID, plus Item # per item).
UPDATE "parsers" SET "sheet_key" = CASE WHEN "row_mode" = 'per_item' THEN 'message_item' ELSE 'message' END;
