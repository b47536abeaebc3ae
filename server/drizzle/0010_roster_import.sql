CREATE TABLE "student_class_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"from_class_id" integer,
	"to_class_id" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" integer
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_from_class_id_classes_id_fk" FOREIGN KEY ("from_class_id") REFERENCES "public"."classes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_to_class_id_classes_id_fk" FOREIGN KEY ("to_class_id") REFERENCES "public"."classes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_class_history_student_id_index" ON "student_class_history" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "students_school_external_id_idx" ON "students" USING btree ("school_id","external_id") WHERE "students"."external_id" is not null and "students"."deleted_at" is null;