CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"start" text NOT NULL,
	"key_hash" text NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"window_started_at" timestamp with time zone,
	"window_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "submitted_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"parsed_email_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"raw" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submitted_emails" ADD CONSTRAINT "submitted_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submitted_emails" ADD CONSTRAINT "submitted_emails_parsed_email_id_parsed_emails_id_fk" FOREIGN KEY ("parsed_email_id") REFERENCES "public"."parsed_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submitted_emails_parsed_email_idx" ON "submitted_emails" USING btree ("parsed_email_id");--> statement-breakpoint
CREATE INDEX "submitted_emails_user_message_idx" ON "submitted_emails" USING btree ("user_id","message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submitted_emails_user_idempotency_idx" ON "submitted_emails" USING btree ("user_id","idempotency_key") WHERE "submitted_emails"."idempotency_key" is not null;