ALTER TABLE "parsers" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notifications_seen_at" timestamp with time zone;--> statement-breakpoint
-- Parsers paused before this migration: their last update is the best guess of when.
UPDATE "parsers" SET "paused_at" = "updated_at" WHERE "active" = false;