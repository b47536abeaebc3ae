CREATE TABLE "areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "area_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "area_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "areas_name_index" ON "areas" USING btree ("name");--> statement-breakpoint
ALTER TABLE "schools" ADD CONSTRAINT "schools_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schools_area_id_index" ON "schools" USING btree ("area_id");