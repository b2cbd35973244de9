// TensorBoard event files: CRC-32C against the check values of RFC 3720
// (iSCSI, which defines CRC-32C), TFRecord's masking by its definition, and
// the events read back by Google's protocol buffer library (tests/
// tensorboard_events.hpp), not by the writer's own code.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "run/tensorboard_writer.hpp"
#include "tests/temp_files.hpp"
#include "tests/tensorboard_events.hpp"

using namespace troupe;

namespace {

std::vector<std::string> event_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().rfind("events.out.tfevents.", 0) == 0) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("tensorboard: CRC-32C gives RFC 3720's check values, and TFRecord masks it as defined") {
  const std::string digits = "123456789";
  CHECK(run::crc32c(digits.data(), digits.size()) == 0xE3069283u);
  const std::string zeros(32, '\0'), ones(32, '\xff');
  CHECK(run::crc32c(zeros.data(), zeros.size()) == 0x8A9136AAu);
  CHECK(run::crc32c(ones.data(), ones.size()) == 0x62A8AB43u);
  const std::uint32_t c = 0xE3069283u;
  CHECK(run::masked_crc32c(digits.data(), digits.size()) == ((c >> 15) | (c << 17)) + 0xA282EAD8u);
  // A record: 8 bytes of length, 4 of its masked CRC, the data, 4 more.
  const std::string record = run::tfrecord("abc");
  REQUIRE(record.size() == 8 + 4 + 3 + 4);
  CHECK(record[0] == 3);
  CHECK(record.substr(1, 7) == std::string(7, '\0'));
  CHECK(record.substr(12, 3) == "abc");
}

TEST_CASE("tensorboard: a writer's events read back as TensorBoard reads them: the version, then steps and tagged scalars") {
  const std::string dir = troupe::tests::temp_file("troupe_tensorboard_test", "events");
  std::filesystem::remove_all(dir);
  const double before = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string path;
  {
    run::tensorboard_writer writer(dir);  // creates the directory
    path = writer.path();
    CHECK(writer.write(1000, {{"episode/return_mean", 21.5f}, {"train/lr", 7e-4f}}));
    CHECK(writer.write(123456789012LL, {{"episode/return_mean", -3.25f}}));
    // Handed to the system at once: readable before the writer closes.
    CHECK(troupe::tests::read_events(path).size() == 3);
  }
  REQUIRE(event_files(dir) == std::vector<std::string>{path});
  const auto events = troupe::tests::read_events(path);
  REQUIRE(events.size() == 3);
  CHECK(events[0].file_version == "brain.Event:2");
  CHECK(events[0].scalars.empty());
  for (const auto& e : events) {
    CHECK(e.wall_time >= before - 1);
    CHECK(e.wall_time <= before + 60);
  }
  CHECK(events[1].step == 1000);
  CHECK(events[1].scalars.size() == 2);
  CHECK(events[1].scalars.at("episode/return_mean") == 21.5f);
  CHECK(events[1].scalars.at("train/lr") == 7e-4f);
  CHECK(events[2].step == 123456789012LL);
  CHECK(events[2].scalars.at("episode/return_mean") == -3.25f);
  // A second writer (a resumed run) starts a file of its own beside the first.
  { run::tensorboard_writer again(dir); }
  CHECK(event_files(dir).size() == 2);
  CHECK(troupe::tests::read_events(path).size() == 3);  // the first untouched
}

TEST_CASE("tensorboard: a place that cannot be written is an error naming the file") {
  const std::string file = troupe::tests::temp_file("troupe_tensorboard_test", "a_file");
  std::ofstream(file) << "not a directory";
  try {
    run::tensorboard_writer writer(file + "/tensorboard");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find(file + "/tensorboard/events.out.tfevents.") != std::string::npos);
    CHECK(std::string(e.what()).find("cannot be written") != std::string::npos);
  }
}
}
