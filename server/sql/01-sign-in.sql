select
  upper("participant_tests"."activation_code"),
  "participant_tests"."id",
  "participant_tests"."status",
  "participant_tests"."test_date",
  "participant_tests"."is_impersonal",
  "participant_tests"."school_id",
  "participant_tests"."student_id",
  "participant_tests"."worker_id",
  "students"."surname",
  "students"."name",
  "students"."patronymic",
  "workers"."surname",
  "workers"."name",
  "workers"."patronymic",
  "participant_tests"."diagnostic_id",
  "participant_tests"."subject_test_id",
  "participant_tests"."class_id",
  "participant_tests"."building_id",
  "diagnostics"."starts_at",
  "diagnostics"."ends_at",
  "diagnostics"."first_published_at",
  (coalesce("students"."accommodations", "workers"."accommodations") ->> 'extraTimePercent')::int,
  exists (
    select
      1
    from
      "exam_works"
    where
      "exam_works"."participant_test_id" = "participant_tests"."id"
      and "exam_works"."deleted_at" is null
  )
from
  "participant_tests"
  inner join "diagnostics" on "diagnostics"."id" = "participant_tests"."diagnostic_id"
  left join "students" on "students"."id" = "participant_tests"."student_id"
  left join "workers" on "workers"."id" = "participant_tests"."worker_id"
where
  (
    upper("participant_tests"."activation_code") = $1
    and "participant_tests"."deleted_at" is null
    and "diagnostics"."deleted_at" is null
    and "participant_tests"."guest_user_id" is null
  );

with
  i as (
    select
      *
    from
      unnest(
        (
          select
            $1::text[]
        ),
        (
          select
            $2::int[]
        ),
        (
          select
            $3::int[]
        ),
        (
          select
            $4::text[]
        ),
        (
          select
            $5::text[]
        ),
        (
          select
            $6::text[]
        ),
        (
          select
            $7::int[]
        ),
        (
          select
            $8::int[]
        ),
        (
          select
            $9::inet[]
        ),
        (
          select
            $10::text[]
        ),
        (
          select
            $11::text[]
        ),
        (
          select
            $12::text[]
        ),
        (
          select
            $13::boolean[]
        ),
        (
          select
            $14::text[]
        ),
        (
          select
            $15::timestamptz[]
        ),
        (
          select
            $16::timestamptz[]
        )
      ) with ordinality as i (
        login,
        student_id,
        worker_id,
        surname,
        name,
        patronymic,
        school_id,
        pt_id,
        ip,
        session_id,
        session_kind,
        session_code,
        app_shell,
        user_agent,
        at,
        expires_at,
        ord
      )
  ),
  found as (
    select
      i.ord,
      f.*
    from
      i
      cross join lateral (
        select
          id,
          login,
          email,
          surname,
          name,
          patronymic,
          is_blocked,
          school_id,
          oo_id,
          student_id,
          worker_id,
          array(
            select
              r.role
            from
              user_roles r
            where
              r.user_id = users.id
          ) as roles
        from
          users
        where
          lower(login) = lower(i.login)
        limit
          1
      ) f
  ),
  ins as (
    insert into
      users (login, student_id, worker_id, surname, name, patronymic, school_id, password_hash)
    select
      login,
      student_id,
      worker_id,
      surname,
      name,
      patronymic,
      school_id,
      null
    from
      i
    where
      not exists (
        select
          1
        from
          found
        where
          found.ord = i.ord
      )
    order by
      login
    on conflict do nothing
    returning
      id,
      login,
      email,
      surname,
      name,
      patronymic,
      is_blocked,
      school_id,
      oo_id,
      student_id,
      worker_id,
      array[]::text[] as roles
  ),
  u as (
    select
      *
    from
      found
    union all
    select
      i.ord,
      ins.*
    from
      ins
      join i on i.login = ins.login
  ),
  role as (
    insert into
      user_roles (user_id, role)
    select
      id,
      'participant'
    from
      u
    where
      not is_blocked
      and not ('participant' = any (roles))
    on conflict do nothing
  ),
  act as (
    update participant_tests p
    set
      status = 'active',
      updated_at = now()
    from
      u
      join i on i.ord = u.ord
    where
      p.id = i.pt_id
      and p.status = 'planned'
      and not u.is_blocked
  ),
  log as (
    insert into
      audit_events (user_id, action, entity, entity_id, details, ip)
    select
      u.id,
      'login',
      'participant_test',
      i.pt_id::text,
      '{"method":"code"}'::jsonb,
      i.ip
    from
      u
      join i on i.ord = u.ord
    where
      not u.is_blocked
  ),
  sess as (
    insert into
      sessions (
        id,
        user_id,
        kind,
        participant_test_id,
        activation_code,
        app_shell,
        user_agent,
        ip,
        created_at,
        last_seen_at,
        expires_at
      )
    select
      i.session_id,
      u.id,
      i.session_kind,
      i.pt_id,
      i.session_code,
      i.app_shell,
      i.user_agent,
      i.ip,
      i.at,
      i.at,
      i.expires_at
    from
      u
      join i on i.ord = u.ord
    where
      not u.is_blocked
  )
select
  ord,
  id,
  login,
  email,
  surname,
  name,
  patronymic,
  is_blocked as "isBlocked",
  school_id as "schoolId",
  oo_id as "ooId",
  student_id as "studentId",
  worker_id as "workerId",
  roles
from
  u;

select
  "name"
from
  "schools"
where
  "schools"."id" = $1;
