select
  "exam_works"."id",
  "exam_works"."participant_test_id",
  "exam_works"."variant_id",
  "exam_works"."status",
  "exam_works"."answer_mode",
  "exam_works"."started_at",
  "exam_works"."time_limit_seconds",
  "exam_works"."extra_seconds",
  "exam_works"."paused_seconds",
  "exam_works"."paused_at",
  "exam_works"."paused_until",
  "exam_works"."deadline_at",
  "exam_works"."window_ends_at",
  "exam_works"."finished_at",
  "exam_works"."finish_reason",
  "exam_works"."device_id",
  "exam_works"."flags",
  "exam_works"."deleted_at",
  "exam_works"."deleted_by",
  "exam_works"."deleted_reason",
  "exam_works"."created_at",
  "exam_works"."updated_at",
  "participant_tests"."school_id",
  "participant_tests"."class_id",
  "participant_tests"."building_id"
from
  "exam_works"
  inner join "participant_tests" on "participant_tests"."id" = "exam_works"."participant_test_id"
where
  "exam_works"."id" in ($1)
order by
  "exam_works"."id" asc
for update of
  "exam_works";

select
  "participant_tests"."id",
  "participant_tests"."diagnostic_id",
  "participant_tests"."subject_test_id",
  "subject_tests"."mark_scale",
  "diagnostics"."results_published"
from
  "participant_tests"
  inner join "subject_tests" on "subject_tests"."id" = "participant_tests"."subject_test_id"
  inner join "diagnostics" on "diagnostics"."id" = "participant_tests"."diagnostic_id"
where
  "participant_tests"."id" in ($1);

select
  "variant_tasks"."variant_id",
  "variant_tasks"."id",
  "tasks"."id",
  "variant_tasks"."max_score",
  "tasks"."answer_type",
  "tasks"."content",
  "tasks"."reference",
  "tasks"."scoring"
from
  "variant_tasks"
  inner join "tasks" on "tasks"."id" = "variant_tasks"."task_id"
where
  "variant_tasks"."variant_id" in ($1)
order by
  "variant_tasks"."variant_id" asc,
  "variant_tasks"."position" asc;

select
  "exam_work_id",
  "variant_task_id",
  "value"::text,
  "seq",
  "saved_at",
  "answer_mode"
from
  "answers"
where
  "answers"."exam_work_id" in ($1)
order by
  "answers"."exam_work_id" asc,
  "answers"."variant_task_id" asc;

select
  "exam_work_id",
  "variant_task_id",
  "file_id"
from
  "answer_files"
where
  "answer_files"."exam_work_id" in ($1)
order by
  "answer_files"."exam_work_id" asc,
  "answer_files"."file_id" asc;

select
  "id",
  "exam_work_id",
  "variant_task_id",
  "auto_status",
  "auto_score",
  "final_score",
  "max_score",
  "status",
  "details",
  "updated_at"
from
  "task_scores"
where
  "task_scores"."exam_work_id" in ($1);

select
  "task_elements"."task_id",
  "specification_elements"."code",
  "specification_elements"."name"
from
  "task_elements"
  inner join "specification_elements" on "specification_elements"."id" = "task_elements"."element_id"
where
  "task_elements"."task_id" in ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
order by
  "specification_elements"."code" asc;

insert into
  "task_scores" (
    "id",
    "exam_work_id",
    "variant_task_id",
    "auto_status",
    "auto_score",
    "final_score",
    "max_score",
    "status",
    "details",
    "updated_at"
  )
values
  (default, $1, $2, $3, $4, $5, $6, $7, $8, default),
  (default, $9, $10, $11, $12, $13, $14, $15, $16, default),
  (default, $17, $18, $19, $20, $21, $22, $23, $24, default),
  (default, $25, $26, $27, $28, $29, $30, $31, $32, default),
  (default, $33, $34, $35, $36, $37, $38, $39, $40, default),
  (default, $41, $42, $43, $44, $45, $46, $47, $48, default),
  (default, $49, $50, $51, $52, $53, $54, $55, $56, default),
  (default, $57, $58, $59, $60, $61, $62, $63, $64, default),
  (default, $65, $66, $67, $68, $69, $70, $71, $72, default),
  (default, $73, $74, $75, $76, $77, $78, $79, $80, default)
on conflict ("exam_work_id", "variant_task_id") do update
set
  "auto_status" = excluded.auto_status,
  "auto_score" = excluded.auto_score,
  "final_score" = excluded.final_score,
  "max_score" = excluded.max_score,
  "status" = excluded.status,
  "details" = excluded.details,
  "updated_at" = now();

select
  "verification_code"
from
  "results"
where
  "results"."verification_code" in ($1);

insert into
  "results" (
    "id",
    "exam_work_id",
    "participant_test_id",
    "diagnostic_id",
    "subject_test_id",
    "status",
    "primary_score",
    "max_score",
    "percent",
    "mark",
    "level",
    "per_element",
    "verification_code",
    "computed_at"
  )
values
  (default, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
on conflict ("exam_work_id") do update
set
  "participant_test_id" = excluded.participant_test_id,
  "diagnostic_id" = excluded.diagnostic_id,
  "subject_test_id" = excluded.subject_test_id,
  "status" = excluded.status,
  "primary_score" = excluded.primary_score,
  "max_score" = excluded.max_score,
  "percent" = excluded.percent,
  "mark" = excluded.mark,
  "level" = excluded.level,
  "per_element" = excluded.per_element,
  "computed_at" = excluded.computed_at
returning
  "id",
  "exam_work_id",
  "verification_code";

update "exam_works"
set
  "status" = $1,
  "updated_at" = $2
where
  (
    "exam_works"."id" in ($3)
    and "exam_works"."status" = $4
  );

update "participant_tests"
set
  "status" = $1,
  "updated_at" = $2
where
  (
    "participant_tests"."id" in ($3)
    and "participant_tests"."status" in ($4, $5, $6, $7)
  )
returning
  "id",
  "diagnostic_id";
