CREATE TABLE "notification_seen" (
	"user_id" integer NOT NULL,
	"study_event_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_seen_user_id_study_event_id_pk" PRIMARY KEY("user_id","study_event_id")
);
--> statement-breakpoint
ALTER TABLE "notification_seen" ADD CONSTRAINT "notification_seen_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_seen" ADD CONSTRAINT "notification_seen_study_event_id_study_events_id_fk" FOREIGN KEY ("study_event_id") REFERENCES "public"."study_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_seen_event_idx" ON "notification_seen" USING btree ("study_event_id");--> statement-breakpoint
CREATE INDEX "study_events_type_time_idx" ON "study_events" USING btree ("event_type","created_at");