// Shared-memory bank arbiter: the RTL twin of the SharedMemory unit's bank rules
// (rtl_models/smem/shared_memory.{h,cpp}, docs/rtl.md).
//
// It takes one warp access (32 lane addresses, an active mask, the bytes per lane), finds the bank
// conflicts and broadcasts, and issues the passes, one per clock, saying which lanes each pass
// serves. The generation is chosen by the cfg_* inputs, which must hold still during a request:
//   - 16 or 32 banks, 4-byte interleave, 4- or 8-byte bank width (a row is banks x width bytes);
//   - lanes served in groups: as many as one pass can feed at the access width, at most a
//     half-warp where cfg_half_warp is set (cc 1.x);
//   - cc 1.x (cfg_single_broadcast): a pass serves the threads of one broadcast word plus one
//     address in every other bank; cfg_split_wide splits an access wider than a bank into one
//     request per bank word, each served on its own.
// Otherwise each bank serves, per pass, the row of its lowest-numbered waiting lane, and every lane
// reading inside that row with it.
//
// Each lane's access is split into slots of 4 bytes (the interleave unit); slot j of lane l is
// at addr[l] + 4 j. A slot belongs to a phase (piece x group); phases are served in order, and
// a lane is reported in the pass that serves its last slot of the phase.
//
// Timing: a request is taken on the clock edge where req_valid and req_ready are both high. The
// n-th pass (n = 1, 2, ...) shows on pass_* after the n-th edge that follows; the last one
// raises done, and req_ready is high during it, so back-to-back requests take exactly one clock
// per pass. An empty mask takes one clock and raises done with pass_count 0.
module smem_bank_arbiter (
    input  logic          clk,
    input  logic          rst_n,
    input  logic          cfg_banks32,
    input  logic          cfg_wide_bank,
    input  logic          cfg_half_warp,
    input  logic          cfg_single_broadcast,
    input  logic          cfg_split_wide,
    input  logic          req_valid,
    output logic          req_ready,
    input  logic [31:0]   req_mask,
    input  logic [2:0]    req_size,       // log2 of the bytes per lane, 0 to 4
    input  logic [1023:0] req_addr,       // lane l at [32 l +: 32], byte addresses
    output logic          pass_valid,
    output logic [31:0]   pass_lanes,
    output logic          done,
    output logic [7:0]    pass_count
);
    localparam int Lanes = 32;
    localparam int Units = 4;             // slots per lane: 16 bytes at most, 4 bytes each
    localparam int Slots = Lanes * Units;

    // ---- Geometry of the request being taken (combinational on the request) -------------------
    logic [2:0] bw_log;                   // log2 bank width: 2 or 3
    logic [2:0] bank_log;                 // log2 banks: 4 or 5
    logic [2:0] piece_log, unit_log, group_log;
    logic [2:0] units_log;                // log2 slots per piece
    logic [2:0] pieces_log;               // log2 pieces
    logic [3:0] per_pass_log;

    always_comb begin
        bw_log = cfg_wide_bank ? 3'd3 : 3'd2;
        bank_log = cfg_banks32 ? 3'd5 : 3'd4;
        if (cfg_split_wide && req_size > bw_log) begin
            pieces_log = req_size - bw_log;
            piece_log = bw_log;
        end else begin
            pieces_log = 3'd0;
            piece_log = req_size;
        end
        // A piece of 4 bytes or less is one slot; wider ones one slot per interleave unit. cc 1.x
        // broadcasts whole piece addresses, one slot each.
        units_log = (cfg_single_broadcast || piece_log <= 3'd2) ? 3'd0 : piece_log - 3'd2;
        unit_log = cfg_split_wide && req_size > bw_log ? bw_log : req_size;
        per_pass_log = {1'b0, bank_log} + {1'b0, bw_log} - {1'b0, unit_log};
        group_log = cfg_half_warp ? 3'd4 : 3'd5;
        if (per_pass_log < {1'b0, group_log}) group_log = per_pass_log[2:0];
    end

    // ---- State -------------------------------------------------------------------------------
    logic               busy;
    logic [Slots-1:0]   pending;
    logic [Slots-1:0][31:0] slot_addr;
    logic [Slots-1:0][4:0]  slot_phase;
    logic [7:0]         count;
    // The geometry latched with the request.
    logic               r_banks32, r_wide, r_single;

    // ---- One pass (combinational on the state) -------------------------------------------------
    // verilator lint_off UNUSEDSIGNAL
    function automatic logic [4:0] bank_of(input logic [31:0] a, input logic banks32);
        bank_of = banks32 ? a[6:2] : {1'b0, a[5:2]};
    endfunction
    // verilator lint_on UNUSEDSIGNAL
    function automatic logic [31:0] row_of(input logic [31:0] a, input logic banks32, input logic wide);
        case ({banks32, wide})
            2'b00: row_of = a >> 6;
            2'b01: row_of = a >> 7;
            2'b10: row_of = a >> 7;
            default: row_of = a >> 8;
        endcase
    endfunction
    function automatic logic [31:0] word_of(input logic [31:0] a, input logic wide);
        word_of = wide ? a >> 3 : a >> 2;
    endfunction

    logic [4:0]       phase;              // the lowest phase with a waiting slot
    logic [Slots-1:0] active, served, left;
    logic [31:0]      win_key [32];       // per bank: the row (or address) its winner serves
    logic [31:0]      win_valid;
    logic [31:0]      bword;
    logic [4:0]       bbank;
    logic [31:0]      lanes_now;

    always_comb begin
        phase = 5'd31;
        for (int s = Slots - 1; s >= 0; s--)
            if (pending[s] && slot_phase[s] <= phase) phase = slot_phase[s];
        for (int s = 0; s < Slots; s++) active[s] = pending[s] && slot_phase[s] == phase;

        // cc 1.x: the lowest active slot's word is broadcast; its bank serves nothing else.
        bword = 32'd0;
        for (int s = Slots - 1; s >= 0; s--)
            if (active[s]) bword = word_of(slot_addr[s], r_wide);
        bbank = bank_of(bword << (r_wide ? 3 : 2), r_banks32);

        // Each bank's winner: its lowest active slot (the broadcast bank takes no winner on 1.x).
        win_valid = 32'd0;
        for (int b = 0; b < 32; b++) win_key[b] = 32'd0;
        for (int s = Slots - 1; s >= 0; s--) begin
            logic [4:0] b;
            b = bank_of(slot_addr[s], r_banks32);
            if (active[s] && !(r_single && b == bbank)) begin
                win_valid[b] = 1'b1;
                win_key[b] = r_single ? slot_addr[s] : row_of(slot_addr[s], r_banks32, r_wide);
            end
        end

        for (int s = 0; s < Slots; s++) begin
            logic [4:0] b;
            b = bank_of(slot_addr[s], r_banks32);
            if (r_single)
                served[s] = active[s] && (word_of(slot_addr[s], r_wide) == bword
                                          || (b != bbank && win_valid[b] && slot_addr[s] == win_key[b]));
            else
                served[s] = active[s] && win_valid[b] && row_of(slot_addr[s], r_banks32, r_wide) == win_key[b];
        end
        left = pending & ~served;

        // A lane is served by the pass that takes its last slot of the phase.
        for (int l = 0; l < Lanes; l++)
            lanes_now[l] = |served[l * Units +: Units] && !(|(active[l * Units +: Units] & left[l * Units +: Units]));
    end

    wire last_now = busy && left == '0;
    assign req_ready = !busy || last_now;

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            busy <= 1'b0;
            pending <= '0;
            count <= '0;
            pass_valid <= 1'b0;
            pass_lanes <= '0;
            done <= 1'b0;
            pass_count <= '0;
            r_banks32 <= 1'b0;
            r_wide <= 1'b0;
            r_single <= 1'b0;
            slot_addr <= '0;
            slot_phase <= '0;
        end else begin
            // Outputs of the pass served in this clock.
            pass_valid <= busy && served != '0;
            pass_lanes <= busy ? lanes_now : '0;
            done <= last_now;
            pass_count <= busy && served != '0 ? count + 8'd1 : count;
            if (busy) begin
                pending <= left;
                count <= count + {7'd0, served != '0};
                if (last_now) busy <= 1'b0;
            end
            // A new request, taken in the clock that serves the last pass of the one before.
            if (req_valid && req_ready) begin
                busy <= 1'b1;
                count <= '0;
                r_banks32 <= cfg_banks32;
                r_wide <= cfg_wide_bank;
                r_single <= cfg_single_broadcast;
                for (int l = 0; l < Lanes; l++)
                    for (int j = 0; j < Units; j++) begin
                        logic [1:0] piece;
                        piece = 2'(j >> units_log);
                        pending[l * Units + j] <= req_mask[l] && (j < (1 << (pieces_log + units_log)));
                        slot_addr[l * Units + j] <= req_addr[32 * l +: 32] + 32'(4 * j);
                        slot_phase[l * Units + j] <= 5'({piece, 3'(l >> group_log)});
                    end
            end
        end
    end
endmodule
