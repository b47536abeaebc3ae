select
  "sessions"."id",
  "sessions"."user_id",
  "sessions"."kind",
  "sessions"."participant_test_id",
  "sessions"."activation_code",
  "sessions"."app_shell",
  "sessions"."user_agent",
  "sessions"."ip",
  "sessions"."created_at",
  "sessions"."last_seen_at",
  "sessions"."expires_at",
  "sessions"."revoked_at",
  "sessions"."revoked_reason",
  "users"."id",
  "users"."login",
  "users"."email",
  "users"."surname",
  "users"."name",
  "users"."patronymic",
  "users"."password_hash",
  "users"."email_confirmed_at",
  "users"."is_blocked",
  "users"."school_id",
  "users"."oo_id",
  "users"."area_id",
  "users"."student_id",
  "users"."worker_id",
  "users"."profile",
  "users"."external_provider",
  "users"."external_subject",
  "users"."created_at",
  "users"."updated_at",
  array(
    select
      "user_roles"."role"
    from
      "user_roles"
    where
      "user_roles"."user_id" = "users"."id"
    order by
      1
  )
from
  "sessions"
  inner join "users" on "users"."id" = "sessions"."user_id"
where
  (
    "sessions"."id" = $1
    and "sessions"."revoked_at" is null
  )
limit
  $2;

select
  "id"
from
  "subject_tests"
where
  "subject_tests"."id" = $1;

select
  "participant_tests"."id",
  "participant_tests"."diagnostic_id",
  "diagnostics"."code",
  "diagnostics"."name",
  "diagnostics"."ends_at",
  "diagnostics"."results_published",
  "diagnostics"."published_at",
  "participant_tests"."subject_test_id",
  "subject_tests"."name",
  "subject_tests"."source_id",
  "subjects"."code",
  "subjects"."name",
  "subject_tests"."level_bands",
  "subject_tests"."mark_scale",
  "participant_tests"."school_id",
  "schools"."name",
  "schools"."code",
  "participant_tests"."class_id",
  "classes"."name",
  "participant_tests"."building_id",
  "participant_tests"."student_id",
  "participant_tests"."test_date",
  "participant_tests"."status",
  "participant_tests"."registration_code",
  coalesce("students"."surname", "workers"."surname"),
  coalesce("students"."name", "workers"."name"),
  case
    when "students"."id" is not null then "students"."patronymic"
    else "workers"."patronymic"
  end,
  "exam_works"."id",
  "exam_works"."status",
  "variants"."number",
  "exam_works"."answer_mode",
  "exam_works"."started_at",
  "exam_works"."finished_at",
  "exam_works"."finish_reason",
  "exam_works"."deadline_at",
  "exam_works"."time_limit_seconds",
  "exam_works"."extra_seconds",
  "exam_works"."paused_seconds",
  "results"."status",
  "results"."primary_score",
  "results"."max_score",
  "results"."percent",
  "results"."mark",
  "results"."level",
  "results"."verification_code"
from
  "participant_tests"
  inner join "diagnostics" on "diagnostics"."id" = "participant_tests"."diagnostic_id"
  inner join "subject_tests" on "subject_tests"."id" = "participant_tests"."subject_test_id"
  inner join "subject_exams" on "subject_exams"."id" = "subject_tests"."subject_exam_id"
  inner join "subjects" on "subjects"."id" = "subject_exams"."subject_id"
  left join "schools" on "schools"."id" = "participant_tests"."school_id"
  left join "classes" on "classes"."id" = "participant_tests"."class_id"
  left join "students" on "students"."id" = "participant_tests"."student_id"
  left join "workers" on "workers"."id" = "participant_tests"."worker_id"
  left join "exam_works" on (
    "exam_works"."participant_test_id" = "participant_tests"."id"
    and "exam_works"."deleted_at" is null
  )
  left join "variants" on "variants"."id" = "exam_works"."variant_id"
  left join "results" on "results"."exam_work_id" = "exam_works"."id"
where
  (
    (
      "participant_tests"."deleted_at" is null
      and "diagnostics"."deleted_at" is null
      and "diagnostics"."kind" <> $1
    )
    and "participant_tests"."id" > $2
    and (
      "participant_tests"."school_id" = $3
      and "participant_tests"."subject_test_id" = $4
    )
  )
order by
  "participant_tests"."id" asc
limit
  $5;
