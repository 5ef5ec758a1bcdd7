/* ---------------------------------------------------------------------
 * peer-dfg: the stationary DFG benchmark 2D-1 (Schaefer & Turek 1996, flow
 * around a cylinder at Re = 20) with deal.II, the second open-flow variant
 * of the lid-driven cavity peer shared/peers/dealii-cavity/cavity.cc, made
 * from bench/peers/dealii-step/step.cc (both derived from the deal.II
 * tutorial step-57, Liang Zhao and Timo Heister, 2016; LGPL-2.1+, shipped
 * by Debian in libdeal.ii-doc 9.4.1).
 *
 * The solver is step.cc's (the cavity peer's), unchanged: Q2/Q1
 * Taylor-Hood, QGauss(3), Newton's method with the step-57 backtracking line
 * search started from the Stokes solution, FGMRES (tolerance 1e-4 * |rhs|,
 * restart 30) with the step-57 block-triangular preconditioner (UMFPACK on
 * the augmented velocity block, ILU-CG 1e-6 on the pressure mass matrix),
 * gamma = 1, the default --al discrete, Newton to an absolute l2 residual of
 * 1e-10, give up after 3 stalled steps, continuation in Re (Re / 2^m <= 150,
 * doubling) only when Newton from the Stokes start fails.
 *
 * Changed against step.cc (geometry, boundary conditions, outputs):
 *  - the DFG channel [0,2.2] x [0,0.41] with the cylinder of centre
 *    (0.2,0.2) and radius 0.05: GridGenerator::channel_with_cylinder(tria,
 *    0.03, 2, 2.0, true) (deal.II's defaults, colorized), its manifolds kept
 *    (a PolarManifold on the cylinder and the shells, a transfinite
 *    interpolation around them), LEVEL global refinements. The mapping is
 *    step-57's default (MappingQ1): cells are straight-sided; refinement
 *    puts the new boundary vertices on the circle;
 *  - boundary ids from colorize = true: 0 = inflow x = 0, u = 4 U_m y
 *    (H - y) / H^2, U_m = 0.3, H = 0.41, v = 0; 2 = cylinder and 3 = walls,
 *    no slip; 1 = outflow x = 2.2, no Dirichlet condition (the natural
 *    condition of the step-57 weak form, nu du/dn - p n = 0, "do nothing");
 *  - Re = U D / nu with U = 0.2 (mean inflow velocity, 2/3 U_m), D = 0.1,
 *    so nu = 0.02 / Re (the benchmark: Re = 20, nu = 1e-3); the inflow does
 *    not change with Re;
 *  - outputs: drag and lift coefficients c_D, c_L = 2 F / (U^2 D) with F the
 *    force of the fluid on the cylinder, F = -int_{id 2} (-p I + nu (grad u
 *    + grad u^T)) n ds (n the outward normal of the fluid domain, QGauss(4)
 *    on the faces), and delta p = p(0.15,0.2) - p(0.25,0.2)
 *    (VectorTools::point_value).
 * One option not in step.cc: --mapping K (K > 1) puts MappingQ(K) into every
 * FEValues, FEFaceValues and point evaluation (curved cells); the default,
 * K = 1, is step-57's linear mapping, the peer as benchmarked.
 * --------------------------------------------------------------------- */

#include <deal.II/base/function.h>
#include <deal.II/base/logstream.h>
#include <deal.II/base/multithread_info.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/tensor.h>
#include <deal.II/base/utilities.h>

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_renumbering.h>
#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>

#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria.h>

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/block_sparse_matrix.h>
#include <deal.II/lac/block_vector.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/precondition.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_gmres.h>
#include <deal.II/lac/sparse_direct.h>
#include <deal.II/lac/sparse_ilu.h>

#include <deal.II/numerics/vector_tools.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <memory>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace Dfg
{
  using namespace dealii;

  struct Options
  {
    double       Re         = 100.0;
    unsigned int level      = 5;
    double       tol        = 1e-10; // absolute l2 norm of the residual
    unsigned int max_newton = 50; // as step-57
    double       gamma      = 1.0; // as step-57
    bool         discrete_al = true; // false: --al graddiv (step-57)
    bool         quiet      = false;
    // not in step.cc: 1 = step-57's default (bi)linear mapping, straight-sided
    // cells (the default, the peer as benchmarked); K > 1: MappingQ(K), curved
    // cells on the cylinder's manifold, for the README's check only
    unsigned int mapping_degree = 1;
  };

  // The DFG 2D-1 channel (GridGenerator::channel_with_cylinder's geometry)
  constexpr double x_in = 0.0, y_up = 0.41;
  constexpr double U_max = 0.3, U_mean = 2.0 / 3.0 * U_max, D = 0.1; // Re = U_mean D / nu
  // boundary ids of channel_with_cylinder(..., colorize = true)
  constexpr types::boundary_id inflow_id = 0, outflow_id = 1, cylinder_id = 2,
                               wall_id = 3;
  // the benchmark's pressure points, in front of and behind the cylinder
  const Point<2> p_front(0.15, 0.2), p_back(0.25, 0.2);

  // Dirichlet data on the inflow and the no-slip parts: u = 4 U_m y (H - y)
  // / H^2, v = 0 on x = 0; zero on the walls and the cylinder. The parabola
  // vanishes at both ends of the inflow, so the shared corner points agree.
  template <int dim>
  class BoundaryValues : public Function<dim>
  {
  public:
    BoundaryValues()
      : Function<dim>(dim + 1)
    {}
    virtual double value(const Point<dim> & p,
                         const unsigned int component) const override
    {
      if (component == 0 && std::abs(p[0] - x_in) < 1e-10)
        return 4.0 * U_max * p[1] * (y_up - p[1]) / (y_up * y_up);
      return 0.0;
    }
  };

  // The benchmark quantities
  struct Quantities
  {
    double c_D = NAN, c_L = NAN, F_x = NAN, F_y = NAN;
    double p_front = NAN, p_back = NAN, delta_p = NAN;
    unsigned int cylinder_faces = 0;
  };

  // As step-57. Two additions for the --al discrete mode: the velocity
  // block to factorise can be given (A + gamma B^T W^-1 B instead of
  // block(0,0)), and the Schur complement inverse becomes
  // -(nu Mp^-1 + gamma W^-1) with W = diag(Mp) (Benzi & Olshanskii 2006)
  // instead of step-57's -(nu + gamma) Mp^-1.
  template <class PreconditionerMp>
  class BlockSchurPreconditioner : public Subscriptor
  {
  public:
    BlockSchurPreconditioner(double                           gamma,
                             double                           viscosity,
                             const BlockSparseMatrix<double> &S,
                             const SparseMatrix<double> &     P,
                             const PreconditionerMp &         Mppreconditioner,
                             const SparseMatrix<double> *     A_aug = nullptr,
                             const Vector<double> *           W_inv = nullptr)
      : gamma(gamma)
      , viscosity(viscosity)
      , stokes_matrix(S)
      , pressure_mass_matrix(P)
      , mp_preconditioner(Mppreconditioner)
      , W_inv(W_inv)
    {
      A_inverse.initialize(A_aug ? *A_aug : stokes_matrix.block(0, 0));
    }

    void vmult(BlockVector<double> &dst, const BlockVector<double> &src) const
    {
      Vector<double> utmp(src.block(0));

      {
        SolverControl solver_control(1000, 1e-6 * src.block(1).l2_norm());
        SolverCG<Vector<double>> cg(solver_control);

        dst.block(1) = 0.0;
        cg.solve(pressure_mass_matrix,
                 dst.block(1),
                 src.block(1),
                 mp_preconditioner);
        if (W_inv == nullptr)
          dst.block(1) *= -(viscosity + gamma);
        else
          {
            dst.block(1) *= -viscosity;
            for (unsigned int i = 0; i < dst.block(1).size(); ++i)
              dst.block(1)(i) -= gamma * (*W_inv)(i) * src.block(1)(i);
          }
      }

      {
        stokes_matrix.block(0, 1).vmult(utmp, dst.block(1));
        utmp *= -1.0;
        utmp += src.block(0);
      }

      A_inverse.vmult(dst.block(0), utmp);
    }

  private:
    const double                     gamma;
    const double                     viscosity;
    const BlockSparseMatrix<double> &stokes_matrix;
    const SparseMatrix<double> &     pressure_mass_matrix;
    const PreconditionerMp &         mp_preconditioner;
    const Vector<double> *           W_inv;
    SparseDirectUMFPACK              A_inverse;
  };

  // The augmented Newton matrix [[A + gamma C, B^T], [B, 0]] with
  // C = B^T W^-1 B, applied as system_matrix + gamma C on the velocity block.
  class AugmentedOperator
  {
  public:
    AugmentedOperator(const BlockSparseMatrix<double> &K,
                      const SparseMatrix<double> &     C,
                      const double                     gamma)
      : K(K)
      , C(C)
      , gamma(gamma)
    {}
    void vmult(BlockVector<double> &dst, const BlockVector<double> &src) const
    {
      K.vmult(dst, src);
      tmp.reinit(src.block(0).size());
      C.vmult(tmp, src.block(0));
      dst.block(0).add(gamma, tmp);
    }

  private:
    const BlockSparseMatrix<double> &K;
    const SparseMatrix<double> &     C;
    const double                     gamma;
    mutable Vector<double>           tmp;
  };

  struct NewtonStats
  {
    unsigned int stokes_solves = 0;
    unsigned int newton_steps  = 0; // Jacobian solves after the Stokes start
    unsigned int backtracks    = 0; // halvings of alpha in the line search
    unsigned int fgmres_its    = 0;
    double       t_assemble    = 0; // wall seconds in assemble()
    double       t_factorize   = 0; // wall seconds in UMFPACK initialize()
    double       t_krylov      = 0; // wall seconds in FGMRES (incl. precond.)
    double       res_initial   = 0; // residual of the Stokes initial guess
    double       res_final     = 0;
    bool         converged     = false;
    bool         continuation  = false;
    struct Stage
    {
      double       re;
      bool         from_stokes;
      unsigned int steps;
      bool         converged;
      double       res_final;
    };
    std::vector<Stage> stages; // one per call of newton_iteration()
  };

  template <int dim>
  class StationaryNavierStokes
  {
  public:
    StationaryNavierStokes(const Options &opt);
    void run();

  private:
    void setup_dofs();
    void initialize_system();
    void assemble(const bool initial_step, const bool assemble_matrix);
    void solve(const bool initial_step);
    bool newton_iteration(const bool from_stokes);
    void make_grid();
    Quantities quantities() const;
    void log(const std::string &s) const
    {
      if (!opt.quiet)
        std::cerr << s << std::endl;
    }

    const Options                        opt;
    double                               viscosity;
    const double                         gamma;
    const unsigned int                   degree;
    std::vector<types::global_dof_index> dofs_per_block;

    Triangulation<dim> triangulation;
    FESystem<dim>      fe;
    DoFHandler<dim>    dof_handler;

    AffineConstraints<double> zero_constraints;
    AffineConstraints<double> nonzero_constraints;

    BlockSparsityPattern      sparsity_pattern;
    BlockSparseMatrix<double> system_matrix;
    SparseMatrix<double>      pressure_mass_matrix;

    // --al discrete only: W^-1 = diag(Mp)^-1, C = B^T W^-1 B, A + gamma C
    void                 build_discrete_al();
    SparsityPattern      aug_pattern;
    SparseMatrix<double> BtWB;
    SparseMatrix<double> A_aug;
    Vector<double>       W_inv;
    bool                 aug_ready = false;

    BlockVector<double> present_solution;
    BlockVector<double> newton_update;
    BlockVector<double> system_rhs;
    BlockVector<double> evaluation_point;

    NewtonStats stats;

    // the mapping of every FEValues and point evaluation: step-57's default
    // linear one, unless --mapping K > 1
    std::unique_ptr<MappingQ<dim>> mapping_q;
    const Mapping<dim> &           mapping() const
    {
      return mapping_q ? static_cast<const Mapping<dim> &>(*mapping_q) :
                         fe.reference_cell().template get_default_linear_mapping<dim>();
    }
  };

  template <int dim>
  StationaryNavierStokes<dim>::StationaryNavierStokes(const Options &opt)
    : opt(opt)
    , viscosity(U_mean * D / opt.Re)
    , gamma(opt.gamma)
    , degree(1)
    , triangulation(Triangulation<dim>::maximum_smoothing)
    , fe(FE_Q<dim>(degree + 1), dim, FE_Q<dim>(degree), 1)
    , dof_handler(triangulation)
    , mapping_q(opt.mapping_degree > 1 ? std::make_unique<MappingQ<dim>>(opt.mapping_degree) : nullptr)
  {}

  // As step-57, minus the console output.
  template <int dim>
  void StationaryNavierStokes<dim>::setup_dofs()
  {
    system_matrix.clear();
    pressure_mass_matrix.clear();

    dof_handler.distribute_dofs(fe);

    std::vector<unsigned int> block_component(dim + 1, 0);
    block_component[dim] = 1;
    DoFRenumbering::component_wise(dof_handler, block_component);

    dofs_per_block =
      DoFTools::count_dofs_per_fe_block(dof_handler, block_component);

    const FEValuesExtractors::Vector velocities(0);
    {
      nonzero_constraints.clear();
      DoFTools::make_hanging_node_constraints(dof_handler, nonzero_constraints);
      const BoundaryValues<dim> data;
      const std::map<types::boundary_id, const Function<dim> *> dirichlet = {
        {inflow_id, &data}, {cylinder_id, &data}, {wall_id, &data}}; // none on outflow_id
      VectorTools::interpolate_boundary_values(dof_handler,
                                               dirichlet,
                                               nonzero_constraints,
                                               fe.component_mask(velocities));
    }
    nonzero_constraints.close();

    {
      zero_constraints.clear();
      DoFTools::make_hanging_node_constraints(dof_handler, zero_constraints);
      const Functions::ZeroFunction<dim> zero(dim + 1);
      const std::map<types::boundary_id, const Function<dim> *> dirichlet = {
        {inflow_id, &zero}, {cylinder_id, &zero}, {wall_id, &zero}};
      VectorTools::interpolate_boundary_values(dof_handler,
                                               dirichlet,
                                               zero_constraints,
                                               fe.component_mask(velocities));
    }
    zero_constraints.close();

    std::ostringstream s;
    s << "cells " << triangulation.n_active_cells() << "  dofs "
      << dof_handler.n_dofs() << " (" << dofs_per_block[0] << " + "
      << dofs_per_block[1] << ")";
    log(s.str());
  }

  template <int dim>
  void StationaryNavierStokes<dim>::initialize_system()
  {
    {
      BlockDynamicSparsityPattern dsp(dofs_per_block, dofs_per_block);
      DoFTools::make_sparsity_pattern(dof_handler, dsp, nonzero_constraints);
      sparsity_pattern.copy_from(dsp);
    }

    system_matrix.reinit(sparsity_pattern);
    aug_ready = false;

    present_solution.reinit(dofs_per_block);
    newton_update.reinit(dofs_per_block);
    system_rhs.reinit(dofs_per_block);
    evaluation_point.reinit(dofs_per_block);
  }

  // Identical to step-57.
  template <int dim>
  void StationaryNavierStokes<dim>::assemble(const bool initial_step,
                                             const bool assemble_matrix)
  {
    const auto t_start = std::chrono::steady_clock::now();
    if (assemble_matrix)
      system_matrix = 0;

    system_rhs = 0;

    QGauss<dim> quadrature_formula(degree + 2);

    FEValues<dim> fe_values(mapping(),
                            fe,
                            quadrature_formula,
                            update_values | update_quadrature_points |
                              update_JxW_values | update_gradients);

    const unsigned int dofs_per_cell = fe.n_dofs_per_cell();
    const unsigned int n_q_points    = quadrature_formula.size();

    // step-57's grad-div term gamma (div u, div v) is part of the discrete
    // equations only in the default mode; --al discrete solves the plain
    // Galerkin equations and augments algebraically in solve().
    const double gamma = opt.discrete_al ? 0.0 : this->gamma;

    const FEValuesExtractors::Vector velocities(0);
    const FEValuesExtractors::Scalar pressure(dim);

    FullMatrix<double> local_matrix(dofs_per_cell, dofs_per_cell);
    Vector<double>     local_rhs(dofs_per_cell);

    std::vector<types::global_dof_index> local_dof_indices(dofs_per_cell);

    std::vector<Tensor<1, dim>> present_velocity_values(n_q_points);
    std::vector<Tensor<2, dim>> present_velocity_gradients(n_q_points);
    std::vector<double>         present_pressure_values(n_q_points);

    std::vector<double>         div_phi_u(dofs_per_cell);
    std::vector<Tensor<1, dim>> phi_u(dofs_per_cell);
    std::vector<Tensor<2, dim>> grad_phi_u(dofs_per_cell);
    std::vector<double>         phi_p(dofs_per_cell);

    for (const auto &cell : dof_handler.active_cell_iterators())
      {
        fe_values.reinit(cell);

        local_matrix = 0;
        local_rhs    = 0;

        fe_values[velocities].get_function_values(evaluation_point,
                                                  present_velocity_values);
        fe_values[velocities].get_function_gradients(
          evaluation_point, present_velocity_gradients);
        fe_values[pressure].get_function_values(evaluation_point,
                                                present_pressure_values);

        for (unsigned int q = 0; q < n_q_points; ++q)
          {
            for (unsigned int k = 0; k < dofs_per_cell; ++k)
              {
                div_phi_u[k]  = fe_values[velocities].divergence(k, q);
                grad_phi_u[k] = fe_values[velocities].gradient(k, q);
                phi_u[k]      = fe_values[velocities].value(k, q);
                phi_p[k]      = fe_values[pressure].value(k, q);
              }

            for (unsigned int i = 0; i < dofs_per_cell; ++i)
              {
                if (assemble_matrix)
                  {
                    for (unsigned int j = 0; j < dofs_per_cell; ++j)
                      {
                        local_matrix(i, j) +=
                          (viscosity *
                             scalar_product(grad_phi_u[j], grad_phi_u[i]) +
                           present_velocity_gradients[q] * phi_u[j] * phi_u[i] +
                           grad_phi_u[j] * present_velocity_values[q] *
                             phi_u[i] -
                           div_phi_u[i] * phi_p[j] - phi_p[i] * div_phi_u[j] +
                           gamma * div_phi_u[j] * div_phi_u[i] +
                           phi_p[i] * phi_p[j]) *
                          fe_values.JxW(q);
                      }
                  }

                double present_velocity_divergence =
                  trace(present_velocity_gradients[q]);
                local_rhs(i) +=
                  (-viscosity * scalar_product(present_velocity_gradients[q],
                                               grad_phi_u[i]) -
                   present_velocity_gradients[q] * present_velocity_values[q] *
                     phi_u[i] +
                   present_pressure_values[q] * div_phi_u[i] +
                   present_velocity_divergence * phi_p[i] -
                   gamma * present_velocity_divergence * div_phi_u[i]) *
                  fe_values.JxW(q);
              }
          }

        cell->get_dof_indices(local_dof_indices);

        const AffineConstraints<double> &constraints_used =
          initial_step ? nonzero_constraints : zero_constraints;

        if (assemble_matrix)
          constraints_used.distribute_local_to_global(local_matrix,
                                                      local_rhs,
                                                      local_dof_indices,
                                                      system_matrix,
                                                      system_rhs);
        else
          constraints_used.distribute_local_to_global(local_rhs,
                                                      local_dof_indices,
                                                      system_rhs);
      }

    if (assemble_matrix)
      {
        pressure_mass_matrix.reinit(sparsity_pattern.block(1, 1));
        pressure_mass_matrix.copy_from(system_matrix.block(1, 1));
        system_matrix.block(1, 1) = 0;
        if (opt.discrete_al)
          build_discrete_al();
      }
    stats.t_assemble += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t_start)
                          .count();
  }

  // --al discrete: C = B^T W^-1 B with W = diag(Mp) (B and Mp do not change
  // during the Newton iteration on a fixed mesh: built once), and
  // A_aug = A + gamma C on the union of both sparsity patterns.
  template <int dim>
  void StationaryNavierStokes<dim>::build_discrete_al()
  {
    const SparseMatrix<double> &A = system_matrix.block(0, 0);
    if (!aug_ready)
      {
        aug_ready = true;
        W_inv.reinit(pressure_mass_matrix.m());
        for (unsigned int i = 0; i < W_inv.size(); ++i)
          W_inv(i) = 1.0 / pressure_mass_matrix.diag_element(i);

        DynamicSparsityPattern dsp(A.m(), A.n());
        dsp.compute_mmult_pattern(sparsity_pattern.block(0, 1),
                                  sparsity_pattern.block(1, 0));
        for (unsigned int i = 0; i < A.m(); ++i)
          for (auto it = sparsity_pattern.block(0, 0).begin(i);
               it != sparsity_pattern.block(0, 0).end(i);
               ++it)
            dsp.add(i, it->column());
        aug_pattern.copy_from(dsp);
        BtWB.reinit(aug_pattern);
        A_aug.reinit(aug_pattern);
        system_matrix.block(0, 1).mmult(BtWB,
                                        system_matrix.block(1, 0),
                                        W_inv,
                                        false);
        std::ostringstream s;
        s << "  discrete AL: nnz(A) " << A.n_nonzero_elements()
          << "  nnz(A + gamma B^T W^-1 B) " << aug_pattern.n_nonzero_elements();
        log(s.str());
      }
    A_aug.copy_from(BtWB);
    A_aug *= gamma;
    for (auto it = A.begin(); it != A.end(); ++it)
      A_aug.add(it->row(), it->column(), it->value());
  }

  // As step-57, except that FGMRES starts from a zero vector.
  template <int dim>
  void StationaryNavierStokes<dim>::solve(const bool initial_step)
  {
    const AffineConstraints<double> &constraints_used =
      initial_step ? nonzero_constraints : zero_constraints;

    SolverControl solver_control(system_matrix.m(),
                                 1e-4 * system_rhs.l2_norm(),
                                 false);

    SolverFGMRES<BlockVector<double>> gmres(solver_control);
    SparseILU<double>                 pmass_preconditioner;
    pmass_preconditioner.initialize(pressure_mass_matrix,
                                    SparseILU<double>::AdditionalData());

    const auto t_start = std::chrono::steady_clock::now();
    const BlockSchurPreconditioner<SparseILU<double>> preconditioner(
      gamma,
      viscosity,
      system_matrix,
      pressure_mass_matrix,
      pmass_preconditioner,
      opt.discrete_al ? &A_aug : nullptr,
      opt.discrete_al ? &W_inv : nullptr);
    const auto t_mid = std::chrono::steady_clock::now();

    newton_update = 0;
    if (!opt.discrete_al)
      gmres.solve(system_matrix, newton_update, system_rhs, preconditioner);
    else
      {
        // same solution as the Galerkin system: B du = r_p, so adding
        // gamma B^T W^-1 (B du - r_p) to the momentum rows changes nothing
        BlockVector<double> rhs(system_rhs);
        Vector<double>      tmp(rhs.block(1));
        tmp.scale(W_inv);
        Vector<double> tmp_u(rhs.block(0).size());
        system_matrix.block(0, 1).vmult(tmp_u, tmp);
        rhs.block(0).add(gamma, tmp_u);
        const AugmentedOperator K_aug(system_matrix, BtWB, gamma);
        gmres.solve(K_aug, newton_update, rhs, preconditioner);
      }
    stats.t_factorize += std::chrono::duration<double>(t_mid - t_start).count();
    stats.t_krylov += std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - t_mid)
                        .count();
    stats.fgmres_its += solver_control.last_step();
    log("    FGMRES steps: " + std::to_string(solver_control.last_step()));

    constraints_used.distribute(newton_update);
  }

  // The step-57 Newton loop for one viscosity on a fixed mesh. Returns true
  // when the absolute l2 norm of the residual reached opt.tol.
  template <int dim>
  bool StationaryNavierStokes<dim>::newton_iteration(const bool from_stokes)
  {
    char buf[256];
    if (from_stokes)
      {
        present_solution = 0;
        evaluation_point = present_solution;
        assemble(true, true);
        solve(true);
        present_solution = newton_update;
        nonzero_constraints.distribute(present_solution);
        ++stats.stokes_solves;
      }
    evaluation_point = present_solution;
    assemble(false, false);
    double current_res = system_rhs.l2_norm();
    double last_res    = current_res;
    if (from_stokes && stats.stokes_solves == 1)
      stats.res_initial = current_res; // of the first Stokes start
    std::snprintf(buf, sizeof(buf), "  Re %g: initial residual %.3e",
                  U_mean * D / viscosity, current_res);
    log(buf);

    unsigned int n = 0, n_stalled = 0;
    while (current_res > opt.tol && n < opt.max_newton)
      {
        const double res_before = current_res;
        evaluation_point        = present_solution;
        assemble(false, true);
        solve(false);

        double alpha = 1.0;
        for (; alpha > 1e-5; alpha *= 0.5)
          {
            evaluation_point = present_solution;
            evaluation_point.add(alpha, newton_update);
            nonzero_constraints.distribute(evaluation_point);
            assemble(false, false);
            current_res = system_rhs.l2_norm();
            if (current_res < last_res)
              break;
            ++stats.backtracks;
          }
        present_solution = evaluation_point;
        last_res         = current_res;
        ++n;
        ++stats.newton_steps;
        std::snprintf(buf, sizeof(buf),
                      "  Newton %2u  alpha %-9g residual %.3e", n, alpha,
                      current_res);
        log(buf);
        if (!std::isfinite(current_res))
          break;
        // Not in step-57: give up (and let run() switch to continuation)
        // once the line search has stalled, i.e. after 3 consecutive steps
        // that each reduced the residual by less than 1 %.
        n_stalled = (current_res > 0.99 * res_before) ? n_stalled + 1 : 0;
        if (n_stalled >= 3)
          {
            log("  Newton stalled");
            break;
          }
      }
    stats.res_final = current_res;
    const bool ok = std::isfinite(current_res) && current_res <= opt.tol;
    stats.stages.push_back({U_mean * D / viscosity, from_stokes, n, ok, current_res});
    return ok;
  }

  // The DFG channel from deal.II (its defaults: shell region 0.03 wide, 2
  // shells, skewness 2; colorized boundary ids), its manifolds kept, then
  // LEVEL global refinements.
  template <int dim>
  void StationaryNavierStokes<dim>::make_grid()
  {
    static_assert(dim == 2, "DFG 2D-1 is two-dimensional");
    GridGenerator::channel_with_cylinder(triangulation, 0.03, 2, 2.0, true);
    triangulation.refine_global(opt.level);
  }

  // c_D, c_L from the force of the fluid on the cylinder,
  // F = -int_{cylinder} (-p I + nu (grad u + grad u^T)) n ds with n the
  // outward normal of the fluid domain (into the cylinder), from each
  // cylinder cell's own shape functions at QGauss(4) points of its face;
  // delta p = p(0.15,0.2) - p(0.25,0.2) from VectorTools::point_value.
  template <int dim>
  Quantities StationaryNavierStokes<dim>::quantities() const
  {
    const FEValuesExtractors::Vector velocities(0);
    const FEValuesExtractors::Scalar pressure(dim);
    const QGauss<dim - 1>            face_quadrature(degree + 3);
    FEFaceValues<dim>                fv(mapping(),
                             fe,
                             face_quadrature,
                             update_values | update_gradients |
                               update_normal_vectors | update_JxW_values);
    const unsigned int          nq = face_quadrature.size();
    std::vector<Tensor<2, dim>> grad(nq);
    std::vector<double>         p(nq);
    Tensor<1, dim>              force;
    Quantities                  q;
    for (const auto &cell : dof_handler.active_cell_iterators())
      for (const unsigned int f : cell->face_indices())
        if (cell->face(f)->at_boundary() &&
            cell->face(f)->boundary_id() == cylinder_id)
          {
            fv.reinit(cell, f);
            fv[velocities].get_function_gradients(present_solution, grad);
            fv[pressure].get_function_values(present_solution, p);
            for (unsigned int k = 0; k < nq; ++k)
              {
                Tensor<2, dim> sigma = viscosity * (grad[k] + transpose(grad[k]));
                for (unsigned int d = 0; d < dim; ++d)
                  sigma[d][d] -= p[k];
                force -= sigma * fv.normal_vector(k) * fv.JxW(k);
              }
            ++q.cylinder_faces;
          }
    q.F_x = force[0];
    q.F_y = force[1];
    q.c_D = 2.0 * q.F_x / (U_mean * U_mean * D);
    q.c_L = 2.0 * q.F_y / (U_mean * U_mean * D);
    Vector<double> v(dim + 1);
    VectorTools::point_value(mapping(), dof_handler, present_solution, p_front, v);
    q.p_front = v(dim);
    VectorTools::point_value(mapping(), dof_handler, present_solution, p_back, v);
    q.p_back  = v(dim);
    q.delta_p = q.p_front - q.p_back;
    return q;
  }

  static double cpu_seconds()
  {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
  }

  template <int dim>
  void StationaryNavierStokes<dim>::run()
  {
    using clock       = std::chrono::steady_clock;
    const auto   t0   = clock::now();
    const double cpu0 = cpu_seconds();

    make_grid();
    setup_dofs();
    initialize_system();

    const double target_Re = opt.Re;
    bool         ok        = false;
    {
      viscosity = U_mean * D / target_Re;
      try
        {
          ok = newton_iteration(true);
        }
      catch (const SolverControl::NoConvergence &)
        {
          log("  FGMRES did not converge");
          ok = false;
        }
    }
    if (!ok)
      {
        // Continuation: Stokes start at Re_0 = Re / 2^m <= 150, then Re doubled
        // up to the target, each stage converged to the same tolerance.
        log("Newton from the Stokes start failed: continuation in Re");
        stats.continuation = true;
        std::vector<double> stages(1, target_Re);
        for (double r = target_Re; r > 150.0;)
          {
            r *= 0.5;
            stages.insert(stages.begin(), r);
          }
        bool first = true;
        ok         = true;
        for (const double r : stages)
          {
            viscosity = U_mean * D / r;
            try
              {
                ok = newton_iteration(first);
              }
            catch (const SolverControl::NoConvergence &)
              {
                ok = false;
              }
            first = false;
            if (!ok)
              break;
          }
      }
    stats.converged = ok;

    const double wall = std::chrono::duration<double>(clock::now() - t0).count();
    const double cpu  = cpu_seconds() - cpu0;

    // Post-processing (not timed above): the benchmark quantities.
    const auto       t1   = clock::now();
    const Quantities q    = quantities();
    const double     post = std::chrono::duration<double>(clock::now() - t1).count();

    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const double rss_mb = ru.ru_maxrss / 1024.0; // ru_maxrss is in kB

    std::string path = "[";
    for (unsigned int i = 0; i < stats.stages.size(); ++i)
      {
        const auto &st = stats.stages[i];
        char        b[200];
        std::snprintf(b, sizeof(b),
                      "%s{\"re\":%g,\"start\":\"%s\",\"steps\":%u,"
                      "\"converged\":%s,\"res\":%.3e}",
                      i ? "," : "", st.re, st.from_stokes ? "stokes" : "previous",
                      st.steps, st.converged ? "true" : "false", st.res_final);
        path += b;
      }
    path += "]";

    std::printf(
      "{\"solver\":\"deal.II %d.%d.%d step-57-derived Q2/Q1 Newton+AL-FGMRES\","
      "\"problem\":\"DFG 2D-1 (Schaefer & Turek 1996), channel_with_cylinder\","
      "\"re\":%g,\"nu\":%.6g,\"level\":%u,\"cells\":%u,\"mapping_degree\":%u,\"al\":\"%s\",\"gamma\":%g,"
      "\"n_dofs\":%u,\"n_dofs_u\":%u,\"n_dofs_p\":%u,"
      "\"converged\":%s,\"newton_steps\":%u,\"stokes_solves\":%u,"
      "\"line_search_backtracks\":%u,\"fgmres_its\":%u,"
      "\"continuation\":%s,\"stages\":%s,"
      "\"res_norm\":\"absolute l2 of assembled residual\",\"tol\":%.1e,"
      "\"res_stokes_start\":%.3e,\"res_final\":%.3e,"
      "\"c_D\":%.12g,\"c_L\":%.12g,\"F_x\":%.12g,\"F_y\":%.12g,"
      "\"p_front\":%.12g,\"p_back\":%.12g,\"delta_p\":%.12g,"
      "\"cylinder_faces\":%u,"
      "\"wall_s\":%.3f,\"cpu_s\":%.3f,\"assemble_s\":%.3f,"
      "\"umfpack_factor_s\":%.3f,\"fgmres_s\":%.3f,\"post_s\":%.3f,"
      "\"peak_rss_mb\":%.1f,\"threads\":%u}\n",
      DEAL_II_VERSION_MAJOR, DEAL_II_VERSION_MINOR, DEAL_II_VERSION_SUBMINOR,
      opt.Re, U_mean * D / opt.Re, opt.level, triangulation.n_active_cells(), opt.mapping_degree,
      opt.discrete_al ? "discrete B^T diag(Mp)^-1 B" : "grad-div (step-57)",
      gamma, (unsigned)dof_handler.n_dofs(),
      (unsigned)dofs_per_block[0], (unsigned)dofs_per_block[1],
      stats.converged ? "true" : "false", stats.newton_steps,
      stats.stokes_solves, stats.backtracks, stats.fgmres_its,
      stats.continuation ? "true" : "false", path.c_str(), opt.tol,
      stats.res_initial, stats.res_final, q.c_D, q.c_L, q.F_x, q.F_y,
      q.p_front, q.p_back, q.delta_p, q.cylinder_faces, wall, cpu,
      stats.t_assemble, stats.t_factorize, stats.t_krylov, post, rss_mb,
      MultithreadInfo::n_threads());
    std::fflush(stdout);
  }
} // namespace Dfg

static void usage()
{
  std::cerr << "usage: dfg RE LEVEL [--tol T] "
               "[--gamma G] [--al graddiv|discrete] [--mapping K] [--quiet]\n"
               "  stationary DFG 2D-1 flow around the cylinder (RE = 20: "
               "the benchmark; nu = 0.02 / RE),\n"
               "  channel_with_cylinder refined LEVEL times, one JSON line "
               "on stdout\n";
}

int main(int argc, char **argv)
{
  using namespace dealii;
  MultithreadInfo::set_thread_limit(1);
  deallog.depth_console(0);

  Dfg::Options opt;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i)
    {
      const std::string a = argv[i];
      if (a == "--quiet")
        opt.quiet = true;
      else if (a == "--tol" && i + 1 < argc)
        opt.tol = std::atof(argv[++i]);
      else if (a == "--al" && i + 1 < argc)
        {
          const std::string m = argv[++i];
          if (m != "graddiv" && m != "discrete")
            {
              usage();
              return 2;
            }
          opt.discrete_al = (m == "discrete");
        }
      else if (a == "--mapping" && i + 1 < argc)
        opt.mapping_degree = std::atoi(argv[++i]);
      else if (a == "--gamma" && i + 1 < argc)
        opt.gamma = std::atof(argv[++i]);
      else if (a == "-h" || a == "--help")
        {
          usage();
          return 0;
        }
      else
        pos.push_back(a);
    }
  if (pos.size() != 2)
    {
      usage();
      return 2;
    }
  opt.Re    = std::atof(pos[0].c_str());
  opt.level = std::atoi(pos[1].c_str());
  if (!(opt.Re > 0) || opt.level > 12 || opt.mapping_degree < 1)
    {
      usage();
      return 2;
    }

  try
    {
      Dfg::StationaryNavierStokes<2> flow(opt);
      flow.run();
    }
  catch (std::exception &exc)
    {
      std::cerr << "Exception: " << exc.what() << std::endl;
      return 1;
    }
  return 0;
}
