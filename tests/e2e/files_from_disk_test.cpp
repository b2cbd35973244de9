// Files from disk, as a user meets them: damaged checkpoints given to eval,
// play and --resume, and a run directory whose disk fills up mid-run.
#include <doctest/doctest.h>

#include <sys/mount.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace fs = std::filesystem;

using namespace troupe::tests;

namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A small tmpfs mounted for the test's lifetime (the tests run as root in
// CI). Mounting is the point of the test: if it is not permitted, the test
// fails saying so rather than pass without a full disk.
struct small_tmpfs {
  std::string dir;
  explicit small_tmpfs(const std::string& path, const std::string& size) : dir(path) {
    fs::create_directories(dir);
    const std::string options = "size=" + size;
    const int rc = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str());
    REQUIRE_MESSAGE(rc == 0, "cannot mount a " << size << " tmpfs on " << dir << ": "
                                               << std::strerror(errno)
                                               << " (this test needs root, as CI has)");
  }
  ~small_tmpfs() { ::umount2(dir.c_str(), MNT_DETACH); }
};

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("damaged checkpoints: eval, play and --resume exit 2 naming the file") {
  const std::string dir = fresh_dir("damaged_ckpt");
  REQUIRE(run_troupe("train " + cartpole_config + " --run-dir " + dir +
                     " --set run.stop.env_steps=30000 --set run.stop.mean_return=100000"
                     " --set checkpoint.every_seconds=0.05 --set log.progress=false")
              .exit_code == 0);
  // A second segment writes a second checkpoint however fast the first ran
  // (a quiet machine trains 30k steps between two of every_seconds' marks).
  REQUIRE(run_troupe("train --resume " + dir + " --set run.stop.env_steps=60000 --set log.progress=false").exit_code == 0);
  const auto written = checkpoints_in(dir);
  REQUIRE(written.size() >= 2);  // an older one, to be named as the way out
  const std::string newest = written.back();
  const std::string good = read_bytes(newest);
  REQUIRE(run_troupe("eval " + newest + " --episodes 1").exit_code == 0);

  std::string flipped = good;
  // Four bytes a third of the way in: inside a tensor, where LibTorch's own
  // reader notices nothing (before checksums this evaluated with exit 0).
  for (size_t k = 0; k < 4; ++k) flipped[good.size() / 3 + k] = char(0x7f);
  struct damage {
    std::string name, bytes, says;
  };
  const std::vector<damage> cases = {
      {"truncated", good.substr(0, good.size() * 2 / 3), "truncated checkpoint"},
      {"zero-length", "", "empty file"},
      {"bit-flipped", flipped, "does not match its checksum"},
      {"foreign", "PK\x03\x04 a zip file of something else entirely", "not a Troupe checkpoint"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const std::string file = dir + "/" + c.name + ".pt";
    write_bytes(file, c.bytes);
    for (const std::string command : {"eval", "play"}) {
      CAPTURE(command);
      const auto r = run_troupe(command + " " + file + " --episodes 1");
      INFO(r.output);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find(file) != std::string::npos);
      CHECK(r.output.find(c.says) != std::string::npos);
    }
    // --resume: the newest checkpoint of the run is the damaged one.
    write_bytes(newest, c.bytes);
    const auto resumed = run_troupe("train --resume " + dir + " --set log.progress=false");
    INFO(resumed.output);
    CHECK(resumed.exit_code == 2);
    CHECK(resumed.output.find(newest) != std::string::npos);
    CHECK(resumed.output.find(c.says) != std::string::npos);
    CHECK(resumed.output.find("the older " + written[written.size() - 2] + " loads") !=
          std::string::npos);
    // An eval of the run directory takes its newest checkpoint: refused too.
    CHECK(run_troupe("eval " + dir + " --episodes 1").exit_code == 2);
    write_bytes(newest, good);
  }
  CHECK(run_troupe("eval " + dir + " --episodes 1").exit_code == 0);
}

TEST_CASE("a run whose disk fills up stops with a clear error and keeps its last good checkpoint") {
  const std::string root = fresh_dir("full_disk");
  small_tmpfs disk(root, "2m");
  const std::string run_dir = root + "/run";
  const std::string log = fresh_dir("full_disk_log") + ".log";
  child_process run({TROUPE_BINARY, "train", cartpole_config, "--run-dir", run_dir, "--set",
                     "run.stop.mean_return=100000", "--set", "run.stop.wall_seconds=120", "--set",
                     "checkpoint.every_seconds=0.2", "--set", "log.progress=false"},
                    log);
  // Wait for a checkpoint, then fill the disk.
  REQUIRE(wait_until([&] { return !checkpoints_in(run_dir).empty(); }, 60));
  {
    std::ofstream filler(root + "/filler", std::ios::binary);
    const std::string block(64 * 1024, 'x');
    while (filler.write(block.data(), block.size()) && filler.flush()) {
    }
  }
  const std::string small(1024, 'y');  // the last crumbs of space too
  for (int i = 0; i < 64; ++i) std::ofstream(root + "/crumb" + std::to_string(i)) << small;
  const int code = run.wait_exit(std::chrono::seconds(60));
  const std::string output = read_file(log);
  INFO(output);
  CHECK(code == 1);
  CHECK(output.find("No space left on device") != std::string::npos);
  CHECK(output.find("the run stopped") != std::string::npos);
  const std::string marker = "The last good checkpoint is kept: ";
  const size_t at = output.find(marker);
  REQUIRE(at != std::string::npos);
  const std::string kept = output.substr(at + marker.size(), output.find('\n', at) - at - marker.size());
  CHECK(fs::exists(kept));
  for (const auto& e : fs::directory_iterator(run_dir + "/checkpoints"))
    CHECK_MESSAGE(e.path().extension() == ".pt", "left behind: " << e.path());
  const auto eval = run_troupe("eval " + kept + " --episodes 1");
  INFO(eval.output);
  CHECK(eval.exit_code == 0);
}
}
