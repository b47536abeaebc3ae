-- Reference data every installation needs: the role catalogue and the parallels (grades).
INSERT INTO "roles" ("code", "name_ru", "name_en") VALUES
  ('participant', 'Участник', 'Participant'),
  ('guest', 'Гость', 'Guest'),
  ('organizator', 'Организатор в аудитории', 'Room organizer'),
  ('coordinator', 'Школьный координатор', 'School coordinator'),
  ('ugnik', 'УГНиК', 'Supervision authority'),
  ('expert', 'Эксперт', 'Expert'),
  ('admin', 'Администратор', 'Administrator'),
  ('integration', 'Интеграция', 'Integration')
ON CONFLICT ("code") DO NOTHING;
--> statement-breakpoint
INSERT INTO "parallels" ("id", "name") VALUES
  (0, 'Дошкольная группа'), (1, '1 класс'), (2, '2 класс'), (3, '3 класс'), (4, '4 класс'),
  (5, '5 класс'), (6, '6 класс'), (7, '7 класс'), (8, '8 класс'), (9, '9 класс'),
  (10, '10 класс'), (11, '11 класс')
ON CONFLICT ("id") DO NOTHING;
