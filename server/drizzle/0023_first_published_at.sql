ALTER TABLE "diagnostics" ADD COLUMN "first_published_at" timestamp with time zone;--> statement-breakpoint
UPDATE "diagnostics" SET "first_published_at" = coalesce("published_at", now()) WHERE "results_published";
